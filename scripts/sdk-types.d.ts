export function buildSdkTypes(options: {
  packageDir: string;
  entries: string[];
  outDir: string;
  commonjsCopy?: string;
  lib?: string[];
}): Promise<number>;
