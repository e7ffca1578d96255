import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../storage/db.ts';
import {
  configureWebhook,
  createSite,
  type LocalReceiver,
  type SiteFixture,
  startReceiver,
} from './test-fixtures.ts';

const CHILD = fileURLToPath(new URL('../testing/crash-child.ts', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const KILLS = 5;

describe('crash safety: SIGKILL at random moments never loses a decision webhook', () => {
  let dataDir: string;
  let receiver: LocalReceiver;
  let site: SiteFixture;
  const delivered = new Set<string>();
  const failedOnce = new Set<string>();

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-crash-'));
    receiver = await startReceiver((req, res) => {
      // Some failures and slow answers, so that kills also land on retries and in-flight sends.
      // A decision fails at most once: after five failed attempts a delivery is given up by design
      // (interface §7), and five random 503s in a row would otherwise come up in about one run in 40.
      const id: string = JSON.parse(req.body).data.id;
      const roll = Math.random();
      if (roll < 0.1 && !failedOnce.has(id)) {
        failedOnce.add(id);
        return void res.writeHead(503).end();
      }
      const answer = () => {
        delivered.add(id);
        res.writeHead(200).end();
      };
      if (roll < 0.3) setTimeout(answer, 50);
      else answer();
    });
    const database = openDatabase({ sqlitePath: path.join(dataDir, 'warden.db') });
    await migrate(database);
    site = await createSite(database, 'pro');
    await configureWebhook(database, site.siteId, receiver.url);
    await database.close();
  });
  afterAll(async () => {
    await receiver.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  function startChild(mode: 'load' | 'drain'): { child: ChildProcess; ready: Promise<void> } {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, mode, site.siteId, site.workspaceId], {
      env: {
        ...process.env,
        WARDEN_DATA_DIR: dataDir,
        WARDEN_UNSAFE_WEBHOOK_TARGETS: '1',
        WARDEN_WEBHOOK_BACKOFF_BASE_S: '0.05',
        WARDEN_LOG_LEVEL: 'silent',
        WARDEN_SEED_DEMO: '0',
        NODE_ENV: 'test',
      },
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const ready = new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('ready')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`child exited early (${code})`)));
    });
    return { child, ready };
  }

  async function kill(child: ChildProcess): Promise<void> {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  }

  it(`kills the process ${KILLS} times under load, restarts, and every decision is delivered`, async () => {
    for (let i = 0; i < KILLS; i++) {
      const { child, ready } = startChild('load');
      await ready;
      await new Promise((r) => setTimeout(r, 300 + Math.random() * 1_200));
      await kill(child);
    }
    const { child, ready } = startChild('drain');
    await ready;
    const database = openDatabase({ sqlitePath: path.join(dataDir, 'warden.db') });
    try {
      const decisions = (await database.db.selectFrom('decisions').select('id').execute()).map((d) => d.id);
      expect(decisions.length).toBeGreaterThan(50);
      // The outbox row is written with the decision: a decision without one would be lost for good.
      const outbox = await database.db.selectFrom('webhook_deliveries').select('decision_id').execute();
      expect(new Set(outbox.map((o) => o.decision_id))).toEqual(new Set(decisions));
      const deadline = Date.now() + 60_000;
      let missing = decisions.filter((id) => !delivered.has(id));
      while (missing.length > 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
        missing = decisions.filter((id) => !delivered.has(id));
      }
      // On failure, show where each missing delivery stands (status, attempts, last error).
      const stuck = await database.db
        .selectFrom('webhook_deliveries')
        .select([
          'decision_id',
          'status',
          'attempts',
          'last_status_code',
          'last_error',
          'next_attempt_at',
          'lease_until',
        ])
        .where('decision_id', 'in', missing.length > 0 ? missing : [''])
        .execute();
      expect(stuck).toEqual([]);
      const duplicates = receiver.requests.length - delivered.size;
      console.info(
        `[crash test] ${decisions.length} decisions, ${KILLS} SIGKILLs, all delivered; ` +
          `${receiver.requests.length} requests received (${duplicates} retries or duplicates)`,
      );
    } finally {
      await kill(child);
      await database.close();
    }
  }, 180_000);
});
