import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * No module-level mutable singletons in the service (issue 13 point 3): long-lived state belongs to
 * an object built once in the composition root (services.ts) and passed in. This scans every
 * non-test source file for top-level `let`/`var`, top-level objects made with `new` and empty
 * literals that something fills later; each one left must be listed here with why it is not state.
 */
const ALLOWED: Record<string, string> = {
  'fingerprint/hardware.ts RANDOMISED': 'constant set of attribute names, never changed',
  'http/routes/idempotency-header.ts KEY': 'a RegExp without the g/y flags keeps no state between uses',
  'http/validation.ts compiled':
    'TypeBox checkers compiled per schema object (the key): a pure function of an immutable key, entries die with it',
  'rules/cel.ts LIST_FUNCTIONS': 'constant set of function names, never changed',
  'rules/cel.ts environment':
    'the CEL environment: variables and functions registered once at load, never changed; evaluations share nothing',
  'decisions/decision-writer.worker.mjs statements':
    "the writer thread's entry module: its scope is that thread's own state (one connection, its statements)",
  'storage/wal-checkpointer.worker.mjs timer':
    "the checkpointer thread's entry module: its scope is that thread's own state (its next round)",
  'storage/wal-checkpointer.worker.mjs last':
    "the checkpointer thread's entry module: the WAL it saw last, that thread's own state",
  'scoring/email-domains.ts DISPOSABLE': 'constant set of disposable e-mail domains',
  'scoring/signals/automation.ts HARD_HEADLESS': 'constant set of rule names',
  'scoring/signals/session.ts CARRIED': 'constant set of rule names',
  'scoring/signals/behavior.ts BOT_TELLS': 'constant set of rule names',
  'scoring/signals/identity.ts CLUSTER_EVENTS': 'constant set of event types',
  'scoring/signals/types.ts FORM_EVENTS': 'constant set of event types',
  'scoring/ip-intel.ts HOSTING_ASNS': 'constant set of hosting ASNs',
  'state/member-set.ts SCRATCH':
    'scratch registers used within one synchronous call and cleared first; never holds state between calls',
  'scoring/identity-graph.ts NO_MEMBERS':
    'the emptied member list of a crowded address: never written to (a crowded address returns before any push)',
  'scoring/identity-graph.ts NO_TIMES': 'as NO_MEMBERS: an empty sentinel, never written to',
  'storage/db.ts pgModule':
    'the pg driver module, loaded on the first PostgreSQL open (a require cache entry)',
  'webhooks/address-policy.ts RELAXABLE': 'constant set of address categories',
  'cli-args.ts SWITCH_SETTINGS': 'constant set of setting names',
  'entities/related-clusters.ts COMMON_MAIL': 'constant set of free-mail domains',
  'scoring/account-key.ts PLACEHOLDER_ACCOUNTS': 'constant set of placeholder account ids',
  'scoring/signals/path-geometry.ts PATH_GEOMETRY': 'constant set of rule names',
  'scoring/signals/aiming-page.ts LONE_AIMING_TELLS': 'constant set of rule names',
  'decisions/packed-row.ts DICTIONARIES':
    'constant map of packed format to its deflate dictionary, read only',
};

const SRC = path.dirname(new URL(import.meta.url).pathname);

/** Test code and test support (fixtures, testing/) may keep what they like. */
function isTestSupport(relative: string): boolean {
  return relative.startsWith('testing/') || /\.test\.ts$|fixtures\.ts$/.test(relative);
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (/\.(ts|mjs)$/.test(entry.name)) out.push(full);
  }
  return out;
}

const TOP_LEVEL_LET = /^(?:export )?(?:let|var) ([A-Za-z_$][\w$]*)/;
const TOP_LEVEL_NEW = /^(?:export )?const ([A-Za-z_$][\w$]*)(?:\s*:.*?)? = new /;
const TOP_LEVEL_EMPTY = /^(?:export )?const ([A-Za-z_$][\w$]*)(?:\s*:.*?)? = (?:\[\]|\{\});/;

/** `file name` of every top-level binding that may hold state. */
export function moduleState(source: string, relative: string): string[] {
  const found: string[] = [];
  for (const line of source.split('\n')) {
    const match = TOP_LEVEL_LET.exec(line) ?? TOP_LEVEL_NEW.exec(line) ?? TOP_LEVEL_EMPTY.exec(line);
    if (match) found.push(`${relative} ${match[1]}`);
  }
  return found;
}

describe('module-level state', () => {
  it('finds the patterns it looks for', () => {
    const sample = [
      'let generation = 0;',
      'export const cache = new Map<string, number>();',
      'const listeners: Array<() => void> = [];',
      '  let local = 1;',
      'const LIMIT = 5;',
    ].join('\n');
    expect(moduleState(sample, 'x.ts')).toEqual(['x.ts generation', 'x.ts cache', 'x.ts listeners']);
  });

  it('is none outside services.ts, apart from the listed constants', () => {
    const found = sourceFiles(SRC)
      .map((file) => path.relative(SRC, file).split(path.sep).join('/'))
      .filter((relative) => !isTestSupport(relative))
      .flatMap((relative) => moduleState(fs.readFileSync(path.join(SRC, relative), 'utf8'), relative));
    expect(found.filter((entry) => !(entry in ALLOWED))).toEqual([]);
    // A listed entry that no longer exists is dropped from the list too.
    expect(Object.keys(ALLOWED).filter((entry) => !found.includes(entry))).toEqual([]);
  });
});
