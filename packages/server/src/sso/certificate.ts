import { X509Certificate } from 'node:crypto';

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g;

/** More would only be a mistake: a rollover needs two, three covers an overlap of two rollovers. */
export const MAX_IDP_CERTIFICATES = 4;

function pemOf(body: string): string {
  const base64 = body.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) throw new Error('is neither PEM nor base64');
  const pem = `-----BEGIN CERTIFICATE-----\n${base64.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;
  try {
    new X509Certificate(pem);
  } catch {
    throw new Error('is not a valid X.509 certificate');
  }
  return pem;
}

/**
 * One or several X.509 certificates given as PEM blocks (one after the other, as when an IdP
 * rolls its signing key over and both the old and the new certificate must be trusted) or as one
 * bare base64 certificate (how IdP consoles and metadata show it). Checked and returned as
 * canonical PEM blocks (64-character lines), duplicates removed, in the order given. Throws an
 * Error whose message says what is wrong.
 */
export function normaliseCertificates(input: string): string[] {
  const text = input.trim();
  if (text === '') throw new Error('is empty');
  let bodies = [text];
  if (text.includes('-----BEGIN')) {
    bodies = [...text.matchAll(PEM_BLOCK)].map((block) => block[1]!);
    if (bodies.length === 0) throw new Error('is not a PEM "CERTIFICATE" block');
  }
  const pems = [
    ...new Set(
      bodies.map((body, index) => {
        try {
          return pemOf(body);
        } catch (err) {
          const which = bodies.length > 1 ? `(certificate ${index + 1}) ` : '';
          throw new Error(`${which}${(err as Error).message}`);
        }
      }),
    ),
  ];
  if (pems.length > MAX_IDP_CERTIFICATES) {
    throw new Error(`holds ${pems.length} certificates; at most ${MAX_IDP_CERTIFICATES} are kept`);
  }
  return pems;
}

/** One certificate (PEM or bare base64) as a canonical PEM block; several are refused. */
export function normaliseCertificate(input: string): string {
  const pems = normaliseCertificates(input);
  if (pems.length > 1) throw new Error('holds several certificates; give only one');
  return pems[0]!;
}

/** The PEM blocks of a stored certificate list (several blocks one after the other). */
export function splitCertificates(stored: string): string[] {
  return [...stored.matchAll(PEM_BLOCK)].map((block) => block[0]!.concat('\n'));
}
