/** Small pure helpers of the forms (lists, single sign-on). */
import type { SsoUpdate } from '../api/types.ts';
import type { Role } from './permissions.ts';

/** Entries typed one per line (or comma-separated), trimmed, blanks dropped. */
export function parseEntries(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

export interface SsoFormValues {
  enabled: boolean;
  source: 'fields' | 'metadata' | 'url';
  idpEntityId: string;
  ssoUrl: string;
  idpCertificate: string;
  metadataXml: string;
  metadataUrl: string;
  defaultRole: Role;
  ssoRequired: boolean;
}

/** The PUT body: IdP metadata XML, its URL (read now and kept fresh), or the three fields by hand. */
export function ssoBody(f: SsoFormValues): SsoUpdate {
  const base = { enabled: f.enabled, defaultRole: f.defaultRole, ssoRequired: f.ssoRequired };
  if (f.source === 'metadata') return { ...base, metadataXml: f.metadataXml };
  if (f.source === 'url') return { ...base, metadataUrl: f.metadataUrl.trim() };
  return {
    ...base,
    idpEntityId: f.idpEntityId.trim(),
    ssoUrl: f.ssoUrl.trim(),
    idpCertificate: f.idpCertificate.trim(),
  };
}
