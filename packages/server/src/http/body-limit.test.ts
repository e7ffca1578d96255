import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestWorkspace, type TestWorkspace } from '../testing/accounts.ts';
import { createTestApp, type TestApp } from '../testing/context.ts';
import { serverHeaders } from '../testing/scoring-app.ts';

/**
 * The client, in its own process (in this one, client and server would take turns on one event
 * loop and never race): sends each oversized body with Node's fetch and prints what it got, a
 * status or the transport error. Bodies: `declared:<bytes>` (Content-Length) or `streamed:<bytes>`
 * (chunked, no length).
 */
const CLIENT = `
const [url, headersJson, ...bodies] = process.argv.slice(1);
const headers = JSON.parse(headersJson);
const out = [];
for (const spec of bodies) {
  const [kind, size] = spec.split(':');
  const bytes = Number(size);
  let init;
  if (kind === 'declared') {
    init = { body: '{"x":"' + ' '.repeat(bytes) + '"}' };
  } else {
    const chunk = new TextEncoder().encode(' '.repeat(16384));
    let sent = 0;
    init = { duplex: 'half', body: new ReadableStream({ pull(c) {
      if (sent === 0) c.enqueue(new TextEncoder().encode('{"x":"'));
      if (sent >= bytes) { c.enqueue(new TextEncoder().encode('"}')); c.close(); return; }
      sent += chunk.length; c.enqueue(chunk);
    } }) };
  }
  try {
    const res = await fetch(url, { method: 'POST', headers, ...init });
    out.push(res.status + ':' + (await res.json()).error.code);
  } catch (e) {
    out.push('error:' + (e.cause?.code ?? e.message));
  }
}
console.log(JSON.stringify(out));
`;

describe('413 over a real connection', () => {
  let t: TestApp;
  let w: TestWorkspace;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp();
    w = await createTestWorkspace(t.ctx, { origins: [] });
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(() => t.close());

  async function send(bodies: string[]): Promise<string[]> {
    const headers = { ...serverHeaders(w.site), 'content-type': 'application/json' };
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--input-type=module', '-e', CLIENT, `${base}/api/antibot/verify`, JSON.stringify(headers), ...bodies],
      { timeout: 60_000 },
    );
    return JSON.parse(stdout) as string[];
  }

  it('reaches a client that is still sending the body (interface §8), declared or streamed', async () => {
    const bodies = [
      ...Array.from({ length: 8 }, (_, i) => `declared:${(i + 1) * 1024 * 1024}`),
      ...Array.from({ length: 8 }, () => `streamed:${400 * 1024}`),
    ];
    expect(await send(bodies)).toEqual(bodies.map(() => '413:payload_too_large'));
  });
});
