import { beforeAll, describe, expect, it } from 'vitest';
import { generateIdpKeys, type IdpKeys, startTestIdp } from '../testing/saml-idp.ts';
import {
  MAX_IDP_CERTIFICATES,
  normaliseCertificate,
  normaliseCertificates,
  splitCertificates,
} from './certificate.ts';
import { spEndpoints, ssoCallbackLocation } from './endpoints.ts';
import { parseIdpMetadata } from './idp-metadata.ts';

let keys: IdpKeys;
let other: IdpKeys;
beforeAll(async () => {
  keys = await generateIdpKeys();
  other = await generateIdpKeys('Next key');
});

const bare = (pem: string) => pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');

describe('normaliseCertificate', () => {
  it('accepts PEM (any line endings) and bare base64, and answers one canonical PEM', () => {
    const canonical = normaliseCertificate(keys.certificate);
    expect(canonical).toMatch(
      /^-----BEGIN CERTIFICATE-----\n([A-Za-z0-9+/=]{1,64}\n)+-----END CERTIFICATE-----\n$/,
    );
    expect(normaliseCertificate(keys.certificate.replace(/\n/g, '\r\n'))).toBe(canonical);
    expect(normaliseCertificate(bare(keys.certificate))).toBe(canonical);
    expect(
      normaliseCertificate(
        `  ${bare(keys.certificate)
          .match(/.{1,76}/g)!
          .join('\n')}  `,
      ),
    ).toBe(canonical);
  });

  it.each([
    ['', 'is empty'],
    ['not a cert!', 'is neither PEM nor base64'],
    ['QUJD', 'is not a valid X.509 certificate'],
    ['-----BEGIN PUBLIC KEY-----\nQUJD\n-----END PUBLIC KEY-----', 'is not a PEM "CERTIFICATE" block'],
  ])('refuses %j: %s', (input, message) => {
    expect(() => normaliseCertificate(input)).toThrow(message);
  });

  it('refuses several certificates where one is expected', () => {
    expect(() => normaliseCertificate(keys.certificate + other.certificate)).toThrow('several certificates');
  });
});

describe('normaliseCertificates (a key rollover trusts several)', () => {
  it('keeps every PEM block in order, without duplicates, and splits them back', () => {
    const list = normaliseCertificates(`${other.certificate}\r\n${keys.certificate}\n${other.certificate}`);
    expect(list).toEqual([normaliseCertificate(other.certificate), normaliseCertificate(keys.certificate)]);
    expect(splitCertificates(list.join(''))).toEqual(list);
    expect(normaliseCertificates(bare(keys.certificate))).toEqual([normaliseCertificate(keys.certificate)]);
  });

  it('names the bad block, and refuses more than the maximum', async () => {
    expect(() =>
      normaliseCertificates(
        `${keys.certificate}-----BEGIN CERTIFICATE-----\nQUJD\n-----END CERTIFICATE-----`,
      ),
    ).toThrow('(certificate 2) is not a valid X.509 certificate');
    const many = await Promise.all(
      Array.from({ length: MAX_IDP_CERTIFICATES + 1 }, (_, i) => generateIdpKeys(`k${i}`)),
    );
    expect(() => normaliseCertificates(many.map((k) => k.certificate).join(''))).toThrow(
      `holds ${MAX_IDP_CERTIFICATES + 1} certificates`,
    );
  }, 60_000);
});

describe('parseIdpMetadata', () => {
  it('reads the test IdP metadata (samlify) and one IdP inside an EntitiesDescriptor', async () => {
    const idp = await startTestIdp({ keys });
    try {
      const parsed = await parseIdpMetadata(idp.metadataXml);
      expect(parsed).toEqual({
        entityId: idp.entityId,
        ssoUrl: idp.ssoUrl,
        certificates: [normaliseCertificate(keys.certificate)],
      });
      const wrapped = `<EntitiesDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata">${idp.metadataXml.replace(/^<\?xml[^>]*>/, '')}</EntitiesDescriptor>`;
      expect((await parseIdpMetadata(wrapped)).entityId).toBe(idp.entityId);
    } finally {
      await idp.close();
    }
  });

  it.each([
    ['not xml', 'is not well-formed XML'],
    ['<x/>', 'has no EntityDescriptor with an IDPSSODescriptor'],
  ])('refuses %j', async (xml, message) => {
    await expect(parseIdpMetadata(xml)).rejects.toThrow(message);
  });
});

describe('SP endpoints and the callback location', () => {
  it('derives every URL from the public URL and keeps its path prefix in the callback', () => {
    expect(spEndpoints('https://w.example', 'ws 1')).toEqual({
      entityId: 'https://w.example/api/sso/saml/ws%201/metadata',
      acsUrl: 'https://w.example/api/sso/saml/ws%201/acs',
      metadataUrl: 'https://w.example/api/sso/saml/ws%201/metadata',
      loginUrl: 'https://w.example/api/sso/saml/ws%201/login',
    });
    const session = { accessToken: 'a.b+c', refreshToken: 'wrt_x', expiresIn: 3600, workspaceId: 'w/1' };
    expect(ssoCallbackLocation('https://w.example', session)).toBe(
      '/dashboard/sso-callback#accessToken=a.b%2Bc&refreshToken=wrt_x&expiresIn=3600&workspaceId=w%2F1',
    );
    expect(ssoCallbackLocation('https://w.example/fraud', session)).toMatch(
      /^\/fraud\/dashboard\/sso-callback#/,
    );
  });
});
