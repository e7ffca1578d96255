import { createRequire } from 'node:module';
import * as sdk from '@warden/node';
import * as sqlite from '@warden/node/receiver-sqlite';

const scenario = createRequire(import.meta.url)('./scenario.cjs');
await scenario(sdk, sqlite);
