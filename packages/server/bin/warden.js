#!/usr/bin/env node
// The `warden` CLI: bundles the TypeScript sources into dist/warden.mjs (bundle.js; about a
// second, fresh on every start, so the code that runs is always the code in src/) and runs it.
// Where dist/ cannot be written (a read-only install), it runs the sources through tsx instead.
import { pathToFileURL } from 'node:url';
import { bundle } from './bundle.js';

async function entry() {
  try {
    return pathToFileURL(await bundle('src/cli.ts', 'warden')).href;
  } catch (err) {
    if (!['EACCES', 'EPERM', 'EROFS'].includes(err?.code)) throw err;
    (await import('tsx/esm/api')).register();
    return '../src/cli.ts';
  }
}

const { main } = await import(await entry());
process.exitCode = await main(process.argv.slice(2));
