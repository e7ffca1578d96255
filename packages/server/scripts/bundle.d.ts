/** The package's dist/ folder, where the bundles go. */
export declare const DIST_DIR: string;
export declare const PACKAGE_DIR: string;
/** Bundle `entry` into dist/`name`.mjs (see bundle.js); resolves to the bundle's path. */
export declare function bundle(entry: string, name: string): Promise<string>;
/** Build the CLI into dist/warden.mjs and its chunks (see bundle.js). */
export declare function buildCli(): Promise<{ entry: string; files: number }>;
