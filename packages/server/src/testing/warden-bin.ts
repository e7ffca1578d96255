import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built `warden` executable the CLI tests run as a child process. */
export const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/warden.js');

/** What one CLI run returned and wrote. */
export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}
