import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { REDACTED_PATHS } from './http/app.ts';
import { redactFields, splitRedactedPaths } from './log-redaction.ts';
import { createLogger } from './main.ts';

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, stream };
}

/** What pino's own redaction (every REDACTED_PATHS path given to pino) writes, for comparison. */
function pinoRedacted(stream: Writable) {
  return pino({ level: 'info', redact: { paths: [...REDACTED_PATHS], censor: '[redacted]' } }, stream);
}

const withoutTime = ({ time: _t, ...rest }: Record<string, unknown>) => rest;

describe('the service logger redacts', () => {
  // One error for both loggers (the same stack).
  const error = Object.assign(new Error('boom'), { token: 'tok-secret', code: 'E1' });
  const secretError = () => error;
  const cases: Array<[string, (l: pino.Logger) => void]> = [
    [
      'a secret key under a field',
      (l) => l.info({ user: { email: 'a@b.example', password: 'hunter2' } }, 'm'),
    ],
    [
      'every secret key',
      (l) => l.info({ s: { secretKey: 1, secret: 2, accessToken: 3, refreshToken: 4, token: 5 } }),
    ],
    ['a key present with no value', (l) => l.info({ body: { password: undefined, name: 'x' } }, 'm')],
    ['an error with a secret property', (l) => l.error({ err: secretError() }, 'failed')],
    ['an error logged alone', (l) => l.error(secretError())],
    ['a child binding', (l) => l.child({ creds: { secret: 's3' }, reqId: 'r1' }).info({ a: 1 }, 'm')],
    [
      'a grandchild binding',
      (l) =>
        l
          .child({ a: 1 }, { level: 'info' })
          .child({ k: { token: 't' } })
          .info('m'),
    ],
    [
      'the headers of a request',
      (l) => l.info({ req: { headers: { authorization: 'Bearer x', cookie: 'c' } } }),
    ],
    [
      'nothing on a line without secrets',
      (l) => l.info({ method: 'POST', status: 201, nested: { a: [1] } }, 'r'),
    ],
    [
      'not a top-level secret or a deeper one',
      (l) => l.info({ password: 'top', a: { b: { token: 'deep' } } }),
    ],
  ];
  it.each(cases)('%s exactly as pino’s wildcard paths do', (_name, write) => {
    const ours = capture();
    const theirs = capture();
    write(createLogger(loadConfig({ WARDEN_LOG_LEVEL: 'info' }), ours.stream));
    write(pinoRedacted(theirs.stream));
    expect(ours.lines.map(withoutTime)).toEqual(theirs.lines.map(withoutTime));
    expect(ours.lines.length).toBeGreaterThan(0);
  });

  it('leaves the logged object alone and copies only a value that holds a secret', () => {
    const redact = redactFields(['password']);
    const clean = { a: { b: 1 }, c: 'x' };
    expect(redact(clean)).toBe(clean);
    const user = { password: 'p', name: 'n' };
    const line = { user, other: { b: 1 } };
    const out = redact(line);
    expect(out).toEqual({ user: { password: '[redacted]', name: 'n' }, other: { b: 1 } });
    expect(out.other).toBe(line.other);
    expect(user.password).toBe('p');
  });

  it('splits the wildcard paths from the literal ones', () => {
    expect(splitRedactedPaths(['req.headers.cookie', '*.password', '*.a.b', 'x'])).toEqual({
      literal: ['req.headers.cookie', '*.a.b', 'x'],
      fields: ['password'],
    });
  });
});
