import { describe, expect, it } from 'vitest';
import { DEFAULT_PRIVATE_SUFFIXES } from '../config.ts';
import { classifyAddress } from './address-policy.ts';
import { checkWebhookUrl, checkWebhookUrlOnSave, resolveWebhookTarget, type UrlPolicy } from './safe-url.ts';

const strict: UrlPolicy = { unsafeTargets: false, privateSuffixes: DEFAULT_PRIVATE_SUFFIXES };
const unsafe: UrlPolicy = { unsafeTargets: true, privateSuffixes: DEFAULT_PRIVATE_SUFFIXES };

function reason(url: string, policy = strict): string | null {
  const r = checkWebhookUrl(url, policy);
  return r.ok ? null : r.reason;
}

describe('address classification, address by address', () => {
  const table: Array<[string, string]> = [
    ['8.8.8.8', 'public'],
    ['1.1.1.1', 'public'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.254', 'cgnat'],
    ['100.128.0.1', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.1.1', 'link-local'],
    ['169.254.169.254', 'metadata'],
    ['169.254.170.2', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['168.63.129.16', 'metadata'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.0.0.8', 'reserved'],
    ['192.0.2.10', 'documentation'],
    ['192.88.99.1', 'reserved'],
    ['192.168.1.1', 'private'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.1', 'documentation'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['2606:4700:4700::1111', 'public'],
    ['2001:4860:4860::8888', 'public'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'ipv4-mapped'],
    ['::ffff:8.8.8.8', 'ipv4-mapped'],
    ['::ffff:7f00:1', 'ipv4-mapped'],
    ['::7f00:1', 'reserved'],
    ['64:ff9b::a00:1', 'translated'],
    ['64:ff9b:1::1', 'translated'],
    ['100::1', 'reserved'],
    ['2001::1', 'reserved'],
    ['2001:2::1', 'benchmarking'],
    ['2001:db8::1', 'documentation'],
    ['2002:7f00:1::1', 'translated'],
    ['3fff::1', 'documentation'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fd00:ec2::254', 'metadata'],
    ['fe80::1', 'link-local'],
    ['febf::1', 'link-local'],
    ['fec0::1', 'reserved'],
    ['ff02::1', 'multicast'],
    ['4000::1', 'reserved'],
  ];
  it.each(table)('%s is %s', (address, category) => {
    expect(classifyAddress(address)).toBe(category);
  });
});

describe('webhook URL rules on save (strict)', () => {
  it('accepts public https URLs on 443', () => {
    expect(reason('https://hooks.example.com/warden')).toBeNull();
    expect(reason('https://hooks.example.com:443/warden?x=1')).toBeNull();
    expect(reason('https://8.8.8.8/hook')).toBeNull();
    expect(reason('https://[2606:4700:4700::1111]/hook')).toBeNull();
    expect(reason('https://EXAMPLE.com./hook')).toBeNull();
  });

  const refused: Array<[string, RegExp]> = [
    ['not a url', /valid absolute URL/],
    ['http://hooks.example.com/', /scheme must be https/],
    ['ftp://hooks.example.com/', /scheme must be https/],
    ['javascript:alert(1)', /scheme must be https/],
    ['https://hooks.example.com:8443/', /port must be 443/],
    ['https://hooks.example.com:80/', /port must be 443/],
    ['https://user:pass@hooks.example.com/', /credentials/],
    ['https://user@hooks.example.com/', /credentials/],
    ['https://@hooks.example.com/', /credentials/],
    ['https://localhost/', /loopback host name/],
    ['https://LOCALHOST./', /loopback host name/],
    ['https://api.localhost/', /loopback host name/],
    ['https://metadata.google.internal/', /private platform host name/],
    ['https://db.internal/', /private platform host name/],
    ['https://printer.local/', /private platform host name/],
    ['https://nas.home.arpa/', /private platform host name/],
    ['https://api.svc.cluster.local/', /private platform host name/],
    ['https://hooks/', /fully qualified/],
    ['https://intranet/', /private platform/],
    ['https://127.0.0.1/', /loopback address/],
    ['https://10.1.2.3/', /private address/],
    ['https://172.20.0.1/', /private address/],
    ['https://192.168.0.10/', /private address/],
    ['https://100.64.1.1/', /carrier-grade NAT/],
    ['https://169.254.169.254/latest/meta-data', /metadata/],
    ['https://169.254.10.10/', /link-local/],
    ['https://0.0.0.0/', /unspecified/],
    ['https://192.0.2.1/', /documentation/],
    ['https://198.18.0.1/', /benchmarking/],
    ['https://224.0.0.1/', /multicast/],
    ['https://255.255.255.255/', /broadcast/],
    ['https://250.1.1.1/', /reserved/],
    ['https://[::1]/', /loopback/],
    ['https://[::]/', /unspecified/],
    ['https://[::ffff:127.0.0.1]/', /IPv4-mapped/],
    ['https://[::ffff:8.8.8.8]/', /IPv4-mapped/],
    ['https://[::ffff:a9fe:a9fe]/', /IPv4-mapped/],
    ['https://[fd00:ec2::254]/', /metadata/],
    ['https://[fe80::1]/', /link-local/],
    ['https://[fc00::1]/', /private/],
    ['https://[2001:db8::1]/', /documentation/],
    ['https://[ff02::1]/', /multicast/],
    ['https://[64:ff9b::7f00:1]/', /NAT64/],
    // Non-standard IPv4 forms: refused even when they decode to a public address.
    ['https://2130706433/', /non-standard/],
    ['https://0x7f000001/', /non-standard/],
    ['https://0x7f.0.0.1/', /non-standard/],
    ['https://0177.0.0.1/', /non-standard/],
    ['https://017700000001/', /non-standard/],
    ['https://127.1/', /non-standard/],
    ['https://134744072/', /non-standard/],
    ['https://0x08.0x08.0x08.0x08/', /non-standard/],
    ['https://%31%32%37.0.0.1/', /loopback address/],
    ['https://08.8.8.8/', /./],
    // Forms the URL parser maps to an IPv4 address: full-width digits, a tab inside, ideographic dots.
    ['https://\uff11\uff13\uff14\uff17\uff14\uff14\uff10\uff17\uff12/', /non-standard/],
    ['https://0x08\t080808/', /non-standard/],
    ['https://8\u30028.8.8/', /non-standard/],
  ];
  it.each(refused)('refuses %s', (url, pattern) => {
    expect(reason(url)).toMatch(pattern);
  });

  it('refuses over-long URLs', () => {
    expect(reason(`https://example.com/${'a'.repeat(2100)}`)).toMatch(/longer than/);
  });

  it('uses the configured private suffixes', () => {
    const policy: UrlPolicy = { unsafeTargets: false, privateSuffixes: ['.corp.example.com'] };
    expect(reason('https://hooks.corp.example.com/', policy)).toMatch(/private platform/);
    expect(reason('https://hooks.example.com/', policy)).toBeNull();
  });
});

describe('WARDEN_UNSAFE_WEBHOOK_TARGETS relaxes exactly http, ports and loopback/private', () => {
  it.each([
    'http://127.0.0.1:8080/hook',
    'http://localhost:3000/',
    'https://10.0.0.5:8443/',
    'http://192.168.1.20/',
    'http://[::1]:9000/',
    'http://[fd12::1]/',
    'http://receiver:8080/',
  ])('allows %s', (url) => {
    expect(reason(url, unsafe)).toBeNull();
  });
  it.each([
    ['http://user:pw@127.0.0.1:8080/', /credentials/],
    ['http://169.254.169.254/', /metadata/],
    ['http://[fd00:ec2::254]/', /metadata/],
    ['http://100.64.0.1/', /carrier-grade/],
    ['http://169.254.1.1/', /link-local/],
    ['http://224.0.0.1/', /multicast/],
    ['http://2130706433/', /non-standard/],
    ['http://[::ffff:127.0.0.1]/', /IPv4-mapped/],
    ['ftp://127.0.0.1/', /scheme/],
    ['http://db.internal/', /private platform/],
  ])('still refuses %s', (url, pattern) => {
    expect(reason(url, unsafe)).toMatch(pattern);
  });
});

describe('send-time resolution', () => {
  it('validates every DNS answer and pins the checked address', async () => {
    const ok = await resolveWebhookTarget('https://hooks.example.com/x', strict, async () => [
      { address: '93.184.216.34', family: 4 },
    ]);
    expect(ok).toMatchObject({ ok: true, address: '93.184.216.34', family: 4 });
    const rebinding = await resolveWebhookTarget('https://hooks.example.com/x', strict, async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ]);
    expect(rebinding).toMatchObject({ ok: false, reason: expect.stringMatching(/resolves to 127.0.0.1/) });
    const mapped = await resolveWebhookTarget('https://hooks.example.com/x', strict, async () => [
      { address: '::ffff:169.254.169.254', family: 6 },
    ]);
    expect(mapped.ok).toBe(false);
  });

  it('reports DNS failures as a refused target', async () => {
    const failed = await resolveWebhookTarget('https://nope.example.com/', strict, async () => {
      throw Object.assign(new Error('x'), { code: 'ENOTFOUND' });
    });
    expect(failed).toEqual({ ok: false, reason: 'DNS lookup of nope.example.com failed (ENOTFOUND)' });
  });

  it('does not resolve IP literals', async () => {
    const r = await resolveWebhookTarget('http://127.0.0.1:9/x', unsafe, async () => {
      throw new Error('should not be called');
    });
    expect(r).toMatchObject({ ok: true, address: '127.0.0.1' });
  });
});

describe('checkWebhookUrlOnSave', () => {
  const policy: UrlPolicy = { unsafeTargets: false, privateSuffixes: ['.internal'] };
  it('gives up on a slow lookup after the timeout and accepts the name', async () => {
    const never = () => new Promise<Array<{ address: string; family: number }>>(() => {});
    const r = await checkWebhookUrlOnSave('https://slow.example.com/x', policy, never, 20);
    expect(r.ok).toBe(true);
  });
  it('keeps the URL rules before any lookup', async () => {
    const r = await checkWebhookUrlOnSave('http://hooks.example.com/', policy, async () => {
      throw new Error('must not be called');
    });
    expect(r).toMatchObject({ ok: false, reason: expect.stringMatching(/https/) });
  });
});
