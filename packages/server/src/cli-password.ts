// Where `warden init` and `warden user add` take a password from, so that it need not be on the
// command line (ps, shell history): --password-stdin, WARDEN_PASSWORD, or a prompt on a terminal.
import type { ParsedArgs } from './cli-args.ts';
import { UsageError } from './cli-args.ts';

export const PASSWORD_ENV = 'WARDEN_PASSWORD';

/** What the password sources need: the environment and the standard streams. */
export interface PasswordIo {
  env: Record<string, string | undefined>;
  stdin: NodeJS.ReadStream;
  stderr: NodeJS.WriteStream;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += String(chunk);
  return text;
}

/** One line typed on the terminal, not echoed. */
function prompt(io: PasswordIo): Promise<string> {
  const { stdin, stderr } = io;
  stderr.write('Password: ');
  stdin.setRawMode(true);
  stdin.resume();
  return new Promise((resolve, reject) => {
    let typed = '';
    const done = (error?: Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      stderr.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (chunk: Buffer) => {
      for (const char of chunk.toString('utf8')) {
        if (char === '\r' || char === '\n') return done();
        if (char === '\u0003') return done(new UsageError('cancelled'));
        if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
        else typed += char;
      }
    };
    stdin.on('data', onData);
  });
}

/**
 * The password: `--password P`, else the first line of standard input with `--password-stdin`,
 * else WARDEN_PASSWORD, else a prompt when standard input is a terminal. None of them: a usage error.
 */
export async function passwordFrom(args: ParsedArgs, io: PasswordIo): Promise<string> {
  const given = args.single.password;
  if (given !== undefined && args.switches.has('password-stdin')) {
    throw new UsageError('give --password or --password-stdin, not both');
  }
  let password: string | undefined = given;
  if (args.switches.has('password-stdin')) password = (await readAll(io.stdin)).split(/\r?\n/)[0];
  else if (password === undefined && io.env[PASSWORD_ENV]) password = io.env[PASSWORD_ENV];
  else if (password === undefined && io.stdin.isTTY) password = await prompt(io);
  if (!password) {
    throw new UsageError(
      `a password is required: --password-stdin, ${PASSWORD_ENV}, a terminal prompt, or --password`,
    );
  }
  return password;
}
