import { Readable, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parseCommandArgs } from './cli-args.ts';
import { type PasswordIo, passwordFrom } from './cli-password.ts';

const SPEC = { single: ['password'], switches: ['password-stdin'] } as const;

/** Standard streams as the password sources see them; `terminal` types `keys` at a prompt. */
function io(options: { env?: Record<string, string>; input?: string; terminal?: boolean }): {
  io: PasswordIo;
  shown: () => string;
} {
  const stdin = Readable.from(options.input === undefined ? [] : [Buffer.from(options.input)]) as Readable & {
    isTTY?: boolean;
    setRawMode?: (on: boolean) => void;
  };
  const raw: boolean[] = [];
  if (options.terminal) {
    stdin.isTTY = true;
    stdin.setRawMode = (on) => raw.push(on);
  }
  let shown = '';
  const stderr = new Writable({
    write(chunk, _encoding, done) {
      shown += String(chunk);
      done();
    },
  });
  return {
    io: { env: options.env ?? {}, stdin: stdin as never, stderr: stderr as never },
    shown: () => `${shown}${raw.length > 0 ? ` raw:${raw.join(',')}` : ''}`,
  };
}

describe('passwords for init and user add', () => {
  it('reads the first line of standard input with --password-stdin', async () => {
    const args = parseCommandArgs(['--password-stdin'], SPEC);
    expect(await passwordFrom(args, io({ input: 'from-stdin-123\nignored\n' }).io)).toBe('from-stdin-123');
  });

  it('takes WARDEN_PASSWORD when no flag names one, and --password over it', async () => {
    const env = { WARDEN_PASSWORD: 'from-env-123' };
    expect(await passwordFrom(parseCommandArgs([], SPEC), io({ env }).io)).toBe('from-env-123');
    expect(await passwordFrom(parseCommandArgs(['--password', 'flag-123'], SPEC), io({ env }).io)).toBe(
      'flag-123',
    );
  });

  it('prompts on a terminal without echoing, with backspace', async () => {
    const terminal = io({ input: 'secrex\u007ft-typed\r', terminal: true });
    expect(await passwordFrom(parseCommandArgs([], SPEC), terminal.io)).toBe('secret-typed');
    expect(terminal.shown()).toBe('Password: \n raw:true,false');
  });

  it('refuses both flags, an empty password, and no source at all', async () => {
    await expect(
      passwordFrom(parseCommandArgs(['--password', 'x', '--password-stdin'], SPEC), io({}).io),
    ).rejects.toThrow('not both');
    await expect(
      passwordFrom(parseCommandArgs(['--password-stdin'], SPEC), io({ input: '\n' }).io),
    ).rejects.toThrow('a password is required');
    await expect(passwordFrom(parseCommandArgs([], SPEC), io({}).io)).rejects.toThrow(
      'a password is required',
    );
  });
});
