// Compact copies of the @ip-location-db range tables for the server package (scripts/package.ts),
// read by the server exactly as the originals (scoring/ip-intel.ts): only the numeric files
// (`start,end,value`), and in the ASN files an organisation name only on the first range of its
// ASN, which is the only one the reader keeps (`asnValue` remembers the first name per ASN, IPv4
// before IPv6). The same lookups in about half the space.
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';

const ASN_FILES = ['asn-ipv4-num.csv', 'asn-ipv6-num.csv'];
const COUNTRY_FILES = ['geo-whois-asn-country-ipv4-num.csv', 'geo-whois-asn-country-ipv6-num.csv'];
const LICENCES = /LICENSE|MODIFICATIONS|README/;

/** `start,end,asn,org` → `start,end,asn` when the ASN's name was written before. */
export function compactAsnLine(line: string, named: Set<string>): string {
  const c1 = line.indexOf(',');
  const c2 = c1 < 0 ? -1 : line.indexOf(',', c1 + 1);
  if (c2 < 0) return line;
  const c3 = line.indexOf(',', c2 + 1);
  const asn = c3 < 0 ? line.slice(c2 + 1) : line.slice(c2 + 1, c3);
  if (c3 < 0 || !named.has(asn)) {
    named.add(asn);
    return line;
  }
  return line.slice(0, c3);
}

async function rewrite(from: string, to: string, map: (line: string) => string): Promise<void> {
  const out = fs.createWriteStream(to);
  const lines = readline.createInterface({
    input: fs.createReadStream(from),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  for await (const line of lines) {
    if (line === '') continue;
    if (!out.write(`${map(line)}\n`))
      await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve, reject) =>
    out.end((err?: Error | null) => (err ? reject(err) : resolve())),
  );
}

function copyLicences(from: string, to: string, prefix: string): void {
  for (const file of fs.readdirSync(from)) {
    if (LICENCES.test(file)) fs.copyFileSync(path.join(from, file), path.join(to, `${prefix}-${file}`));
  }
}

/** Write the compact tables and the packages' licence files into `outDir`. */
export async function compactAsnTables(asnDir: string, countryDir: string, outDir: string): Promise<void> {
  fs.mkdirSync(outDir, { recursive: true });
  const named = new Set<string>();
  for (const file of ASN_FILES) {
    await rewrite(path.join(asnDir, file), path.join(outDir, file), (line) => compactAsnLine(line, named));
  }
  for (const file of COUNTRY_FILES) fs.copyFileSync(path.join(countryDir, file), path.join(outDir, file));
  copyLicences(asnDir, outDir, 'asn');
  copyLicences(countryDir, outDir, 'country');
}
