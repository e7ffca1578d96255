// The server package's compact IP tables (scripts/compact-ip-tables.ts) answer every lookup as
// the @ip-location-db files they were made from.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compactAsnLine, compactAsnTables } from '../../../../scripts/compact-ip-tables.ts';
import { IpIntel } from './ip-intel.ts';

const ORIGINAL = {
  'asn-ipv4-num.csv': [
    '16777216,16777471,13335,"Cloudflare, Inc."',
    '16778240,16779263,38803,Gtelecom Pty Ltd',
    '16779264,16781311,13335,"Cloudflare, Inc."',
    '134744064,134744319,15169,Google LLC',
  ],
  'asn-ipv6-num.csv': [
    '50543257672059871404715951523469721600,50543257751288033918980289117013671935,13335,"Cloudflare, Inc."',
    '55827987809411540836515382960316219392,55827987888639703350779720553860169727,15169,Google LLC',
  ],
  'geo-whois-asn-country-ipv4-num.csv': ['16777216,16779263,AU', '134744064,134744319,US'],
  'geo-whois-asn-country-ipv6-num.csv': [
    '55827987809411540836515382960316219392,55827987888639703350779720553860169727,US',
  ],
};

const ADDRESSES = [
  '1.0.0.1',
  '1.0.4.9',
  '1.0.8.1',
  '8.8.8.8',
  '2a00:1450:4001::8',
  '2606:4700::1111',
  '9.9.9.9',
];

describe('compact IP tables for the server package', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-ip-compact-'));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('names an ASN once, on its first range', () => {
    const named = new Set<string>();
    expect(compactAsnLine('1,2,13335,"Cloudflare, Inc."', named)).toBe('1,2,13335,"Cloudflare, Inc."');
    expect(compactAsnLine('3,4,13335,"Cloudflare, Inc."', named)).toBe('3,4,13335');
    expect(compactAsnLine('5,6,15169,Google LLC', named)).toBe('5,6,15169,Google LLC');
  });

  it('gives the same answers as the original files, in less space', async () => {
    const original = path.join(root, 'original');
    fs.mkdirSync(original);
    for (const [file, lines] of Object.entries(ORIGINAL))
      fs.writeFileSync(path.join(original, file), `${lines.join('\n')}\n`);
    fs.writeFileSync(path.join(original, 'DBIP-LICENSE'), 'CC BY 4.0');
    const compact = path.join(root, 'compact');
    await compactAsnTables(original, original, compact);

    const from = async (dir: string) => {
      const intel = new IpIntel({ enabled: true, dir });
      await intel.ready();
      return ADDRESSES.map((ip) => intel.lookup(ip));
    };
    const answers = await from(original);
    expect(answers[0]).toMatchObject({ asn: 13335, org: 'Cloudflare, Inc.', country: 'AU' });
    expect(answers[2]).toMatchObject({ asn: 13335, org: 'Cloudflare, Inc.' });
    expect(answers[4]).toMatchObject({ asn: 15169, org: 'Google LLC', country: 'US' });
    expect(answers[5]).toMatchObject({ asn: 13335, org: 'Cloudflare, Inc.' });
    expect(await from(compact)).toEqual(answers);
    const size = (dir: string, file: string) => fs.statSync(path.join(dir, file)).size;
    expect(size(compact, 'asn-ipv4-num.csv')).toBeLessThan(size(original, 'asn-ipv4-num.csv'));
    expect(size(compact, 'asn-ipv6-num.csv')).toBeLessThan(size(original, 'asn-ipv6-num.csv'));
    expect(fs.existsSync(path.join(compact, 'asn-DBIP-LICENSE'))).toBe(true);
  });
});
