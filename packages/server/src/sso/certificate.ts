import { X509Certificate } from 'node:crypto';

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g;

/**
 * An X.509 certificate given as PEM or as bare base64 (how IdP consoles and metadata show it),
 * checked and returned as one canonical PEM block (64-character lines). Throws an Error whose
 * message says what is wrong.
 */
export function normaliseCertificate(input: string): string {
  const text = input.trim();
  if (text === '') throw new Error('is empty');
  let body = text;
  if (text.includes('-----BEGIN')) {
    const blocks = [...text.matchAll(PEM_BLOCK)];
    if (blocks.length === 0) throw new Error('is not a PEM "CERTIFICATE" block');
    if (blocks.length > 1) throw new Error('holds several certificates; give only the signing certificate');
    body = blocks[0]![1]!;
  }
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
