import net from 'node:net';
import fc from 'fast-check';
import { type Answer, violation } from './oracle.ts';

/** What a raw-socket case sends: bytes, then whether to half-close the socket. */
export interface RawCase {
  name: string;
  bytes: Buffer;
  endWrite: boolean;
}

const CRLF = '\r\n';

/** A valid request to mutate: a JSON POST to a scoring route, or a GET of a management route. */
function baseRequest(path: string, headers: Record<string, string>, body: string): string {
  const lines = [`POST ${path} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close'];
  for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
  lines.push('Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`);
  return lines.join(CRLF) + CRLF + CRLF + body;
}

/**
 * Byte-level mutations of a valid request, the kind Node's HTTP parser and Fastify's framework
 * errors must answer in the envelope (or close): broken request lines, framing conflicts, oversized
 * and malformed headers, bad chunking, truncated bodies, random bytes.
 */
export function rawCaseArbitrary(paths: string[], headers: Record<string, string>): fc.Arbitrary<RawCase> {
  const path = fc.constantFrom(...paths);
  const body = fc.oneof(
    fc.constant('{"context":{"event_type":"login"}}'),
    fc.json({ maxDepth: 2 }),
    fc.string({ maxLength: 50 }),
  );
  const valid = fc.tuple(path, body).map(([p, b]) => baseRequest(p, headers, b));
  const mutate = (name: string, f: (req: string) => string | Buffer, endWrite = true) =>
    valid.map((req): RawCase => {
      const out = f(req);
      return { name, bytes: Buffer.isBuffer(out) ? out : Buffer.from(out, 'latin1'), endWrite };
    });
  return fc.oneof(
    mutate('valid', (r) => r),
    mutate('two content-lengths', (r) =>
      r.replace('Content-Length:', 'Content-Length: 3\r\nContent-Length:'),
    ),
    mutate('content-length and chunked', (r) =>
      r.replace('Content-Length:', 'Transfer-Encoding: chunked\r\nContent-Length:'),
    ),
    mutate('bad chunk', (r) =>
      r.replace(
        /Content-Length: \d+\r\n\r\n[\s\S]*$/,
        'Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
      ),
    ),
    mutate('truncated body', (r) => r.slice(0, r.length - 5)),
    mutate('longer content-length', (r) =>
      r.replace(/Content-Length: (\d+)/, (_, n) => `Content-Length: ${Number(n) + 100}`),
    ),
    mutate('negative content-length', (r) => r.replace(/Content-Length: \d+/, 'Content-Length: -1')),
    mutate('header without colon', (r) => r.replace('Connection: close', 'Connection: close\r\nNoColonHere')),
    mutate('oversized header', (r) =>
      r.replace('Connection: close', `Connection: close\r\nX-Big: ${'a'.repeat(20_000)}`),
    ),
    mutate('NUL in path', (r) => r.replace(' HTTP/1.1', '%00\u0000x HTTP/1.1')),
    mutate('bad method', (r) => r.replace(/^POST/, 'P\u00d6ST')),
    mutate('unknown version', (r) => r.replace('HTTP/1.1', 'HTTP/7.3')),
    mutate('bare LF', (r) => r.replaceAll(CRLF, '\n')),
    mutate('absolute-form', (r) => r.replace(/^POST \//, 'POST http://127.0.0.1/')),
    mutate('space in header name', (r) => r.replace('Host:', 'Ho st:')),
    mutate('invalid UTF-8 body', (r) =>
      Buffer.concat([
        Buffer.from(r.replace(/Content-Length: \d+\r\n\r\n[\s\S]*$/, 'Content-Length: 4\r\n\r\n'), 'latin1'),
        Buffer.from([0xff, 0xfe, 0x7b, 0x7d]),
      ]),
    ),
    mutate('deeply nested JSON', (r) => {
      const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
      return r.replace(
        /Content-Length: \d+\r\n\r\n[\s\S]*$/,
        `Content-Length: ${deep.length}\r\n\r\n${deep}`,
      );
    }),
    fc
      .uint8Array({ minLength: 1, maxLength: 300 })
      .map((b): RawCase => ({ name: 'random bytes', bytes: Buffer.from(b), endWrite: true })),
    fc.tuple(valid, fc.integer({ min: 1, max: 60 })).map(
      ([r, cut]): RawCase => ({
        name: 'cut mid-request',
        bytes: Buffer.from(r.slice(0, cut), 'latin1'),
        endWrite: true,
      }),
    ),
  );
}

/** Send one case, read until the server closes (or `timeoutMs`), and check what came back. */
export function sendRaw(port: number, c: RawCase, timeoutMs: number): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(`${c.name}: connection still open after ${timeoutMs} ms`);
    }, timeoutMs);
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', () => undefined); // a reset is an acceptable way to refuse
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(check(c, Buffer.concat(chunks).toString('latin1')));
    });
    socket.on('connect', () => {
      socket.write(c.bytes);
      if (c.endWrite) socket.end();
    });
  });
}

function check(c: RawCase, raw: string): string | null {
  if (raw === '') return null; // closed without an answer: allowed for garbage
  const head = raw.slice(0, raw.indexOf('\r\n\r\n') >= 0 ? raw.indexOf('\r\n\r\n') : raw.length);
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1]);
  if (!Number.isFinite(status)) return `${c.name}: not an HTTP answer: ${raw.slice(0, 80)}`;
  const contentType = /\r\ncontent-type: ([^\r\n]*)/i.exec(head)?.[1] ?? '';
  let body = raw.slice(head.length + 4);
  if (/\r\ntransfer-encoding: chunked/i.test(head)) body = dechunk(body);
  const answer: Answer = { method: 'POST', path: '/api/raw', status, contentType, body };
  const problem = violation(answer);
  return problem ? `${c.name}: ${problem}` : null;
}

function dechunk(body: string): string {
  let out = '';
  let rest = body;
  for (;;) {
    const line = rest.indexOf('\r\n');
    if (line < 0) return out;
    const size = Number.parseInt(rest.slice(0, line), 16);
    if (!size) return out;
    out += rest.slice(line + 2, line + 2 + size);
    rest = rest.slice(line + 2 + size + 2);
  }
}

/**
 * `count` raw-socket cases from `seed` against the fuzz target's scoring and rule routes,
 * `concurrency` connections at a time; the problems found (empty: none).
 */
export async function runRawFuzz(options: {
  port: number;
  site: { siteKey: string; secretKey: string };
  seed: number;
  count: number;
  concurrency?: number;
}): Promise<string[]> {
  const headers = {
    'X-Site-Key': options.site.siteKey,
    'X-Secret-Key': options.site.secretKey,
    Origin: 'https://shop.example',
  };
  const paths = ['/api/antibot/verify', '/api/antibot/collect', '/api/rules'];
  const cases = fc.sample(rawCaseArbitrary(paths, headers), { seed: options.seed, numRuns: options.count });
  const problems: string[] = [];
  const step = options.concurrency ?? 10;
  for (let i = 0; i < cases.length; i += step) {
    for (const p of await Promise.all(cases.slice(i, i + step).map((c) => sendRaw(options.port, c, 8_000)))) {
      if (p) problems.push(p);
    }
  }
  return problems;
}
