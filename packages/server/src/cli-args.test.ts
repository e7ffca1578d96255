import { describe, expect, it } from 'vitest';
import { parseCommandArgs } from './cli-args.ts';

describe('parseCommandArgs', () => {
  it('separates command flags, repeated flags, positionals and setting flags', () => {
    const parsed = parseCommandArgs(
      ['plan', '--origin', 'a', '--data-dir', '/tmp/x', '--origin=b', '--email=e', 'w', '--seed-demo=0'],
      { single: ['email'], multi: ['origin'] },
    );
    expect(parsed).toEqual({
      single: { email: 'e' },
      multi: { origin: ['a', 'b'] },
      positionals: ['plan', 'w'],
      settings: ['--data-dir=/tmp/x', '--seed-demo=0'],
      help: false,
      switches: new Set(),
    });
  });

  it('reads a switch setting without a value as on, and takes a yes/no word after it as its value', () => {
    expect(parseCommandArgs(['--seed-demo', 'plan', 'w'], {})).toMatchObject({
      positionals: ['plan', 'w'],
      settings: ['--seed-demo=1'],
    });
    expect(parseCommandArgs(['--ip-db', 'false', '--webhook-worker'], {}).settings).toEqual([
      '--ip-db=false',
      '--webhook-worker=1',
    ]);
    expect(parseCommandArgs(['-h'], {}).help).toBe(true);
  });

  it('names the flag in usage errors', () => {
    expect(() => parseCommandArgs(['--bogus', 'x'], {})).toThrow(/^unknown flag --bogus$/);
    expect(() => parseCommandArgs(['-x'], {})).toThrow(/^unknown flag -x$/);
    expect(() => parseCommandArgs(['--email'], { single: ['email'] })).toThrow(/^--email needs a value$/);
    expect(() => parseCommandArgs(['--password', '-secret'], { single: ['password'] })).toThrow(
      '--password needs a value (write --password=-secret for a value that starts with "-")',
    );
    expect(parseCommandArgs(['--password=-secret'], { single: ['password'] }).single).toEqual({
      password: '-secret',
    });
    expect(() => parseCommandArgs(['--help=yes'], {})).toThrow(/^--help takes no value$/);
  });
});
