// Type declarations for the published SDKs (@warden/node, @warden/browser). The sources import
// their request/response types from the private @warden/protocol workspace (TypeBox schemas), so
// the declarations emitted by tsc are rewritten to a self-contained `protocol.d.ts` that spells
// each protocol type out as a plain TypeScript type: an installed SDK needs neither
// @warden/protocol nor TypeBox. Relative `.ts` imports become `.js`.
import fs from 'node:fs';
import path from 'node:path';

const PROTOCOL = '@warden/protocol';

/**
 * Emits `<outDir>/**.d.ts` for `entries` (files under `<packageDir>/src`) and `<outDir>/protocol.d.ts`.
 * `commonjsCopy`: also a copy under that folder marked `"type": "commonjs"`, for `require` users.
 */
export async function buildSdkTypes({
  packageDir,
  entries,
  outDir,
  commonjsCopy,
  lib = ['lib.es2023.d.ts'],
}) {
  const ts = (await import('typescript')).default;
  const srcDir = path.join(packageDir, 'src');
  const options = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib,
    types: ['node'],
    strict: true,
    exactOptionalPropertyTypes: true,
    allowImportingTsExtensions: true,
    declaration: true,
    emitDeclarationOnly: true,
    skipLibCheck: true,
    customConditions: ['warden-source'],
    outDir: path.join(outDir, '.tmp'),
  };
  const program = ts.createProgram(
    entries.map((e) => path.join(packageDir, e)),
    options,
  );
  const checker = program.getTypeChecker();
  fs.rmSync(outDir, { recursive: true, force: true });
  const written = [];
  const emit = program.emit(undefined, (_name, text, _bom, _onError, sourceFiles) => {
    const source = sourceFiles?.[0]?.fileName;
    if (!source || !path.resolve(source).startsWith(srcDir + path.sep)) return;
    const rel = path.relative(srcDir, source).replace(/\.ts$/, '.d.ts');
    const target = path.join(outDir, rel);
    const toProtocol = path.relative(path.dirname(target), path.join(outDir, 'protocol.js'));
    const fixed = text
      .replace(/(from\s+|import\()(['"])(\.{1,2}\/[^'"]+)\.ts\2/g, '$1$2$3.js$2')
      .replaceAll(`'${PROTOCOL}'`, `'${toProtocol.startsWith('.') ? toProtocol : `./${toProtocol}`}'`);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, fixed);
    written.push(target);
  });
  const errors = emit.diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (errors.length > 0) {
    throw new Error(ts.formatDiagnostics(errors, ts.createCompilerHost(options)));
  }
  fs.writeFileSync(path.join(outDir, 'protocol.d.ts'), protocolDeclarations(ts, program, checker));
  if (commonjsCopy) {
    fs.rmSync(commonjsCopy, { recursive: true, force: true });
    fs.cpSync(outDir, commonjsCopy, { recursive: true });
    fs.writeFileSync(path.join(commonjsCopy, 'package.json'), '{ "type": "commonjs" }\n');
  }
  return written.length + 1;
}

/** Every type exported by @warden/protocol, written out structurally (no TypeBox `Static<>`). */
function protocolDeclarations(ts, program, checker) {
  const index = program.getSourceFiles().find((f) => /[\\/]protocol[\\/]src[\\/]index\.ts$/.test(f.fileName));
  if (!index) throw new Error(`${PROTOCOL} is not part of the program: nothing imports it`);
  const moduleSymbol = checker.getSymbolAtLocation(index);
  const flags = ts.NodeBuilderFlags.NoTruncation | ts.NodeBuilderFlags.InTypeAlias;
  const printer = ts.createPrinter({ newLine: ts.NewLineKind.LineFeed });
  const lines = ['// Generated from @warden/protocol by scripts/sdk-types.js: the types of the Warden API.'];
  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    if (!(symbol.flags & ts.SymbolFlags.TypeAlias)) continue;
    const type = checker.getDeclaredTypeOfSymbol(symbol);
    const node = checker.typeToTypeNode(type, undefined, flags);
    const text = printer.printNode(ts.EmitHint.Unspecified, node, index);
    if (text.includes('Static<') || text.includes('TSchema')) {
      throw new Error(`${exported.name} did not resolve to a plain type: ${text.slice(0, 200)}`);
    }
    lines.push(`export type ${exported.name} = ${text};`);
  }
  return `${lines.join('\n')}\n`;
}
