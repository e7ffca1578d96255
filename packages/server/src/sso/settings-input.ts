import type { AttributeMapping, SsoSettings } from '@warden/protocol/management';
import type { Role } from '@warden/protocol/permissions';
import { ApiError, type ErrorDetail } from '../errors.ts';
import { checkAttributeMapping } from './attribute-mapping.ts';
import { normaliseCertificates } from './certificate.ts';
import { parseIdpMetadata } from './idp-metadata.ts';

/** The body of PUT /api/workspaces/{id}/sso, after schema validation. */
export interface SsoConfigInput {
  enabled: boolean;
  idpEntityId?: string | undefined;
  ssoUrl?: string | undefined;
  idpCertificate?: string | undefined;
  metadataXml?: string | undefined;
  metadataUrl?: string | undefined;
  defaultRole: Role;
  ssoRequired: boolean;
  attributeMapping?: Partial<AttributeMapping> | undefined;
}

function httpUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an http or https URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an http or https URL';
  if (url.username || url.password) return 'must not contain credentials';
  return null;
}

/**
 * Turn the PUT body into settings to store: IdP metadata (when given) supplies entity id, SSO URL
 * and signing certificate; every field is checked, and every problem is reported at once as
 * 400 `validation_failed` with `{path, message}` details.
 */
export async function resolveSsoSettings(
  input: SsoConfigInput,
  fetchMetadata: (url: string) => Promise<string> = async () => {
    throw new Error('metadata URLs are not read here');
  },
): Promise<SsoSettings> {
  const problems: ErrorDetail[] = [];
  const metadataUrl = input.metadataUrl?.trim() || null;
  let metadataXml = input.metadataXml;
  let metadataPath = 'body.metadataXml';
  if (metadataUrl !== null && (metadataXml === undefined || metadataXml.trim() === '')) {
    metadataPath = 'body.metadataUrl';
    try {
      metadataXml = await fetchMetadata(metadataUrl);
    } catch (err) {
      problems.push({ path: metadataPath, message: (err as Error).message });
    }
  }
  let idpEntityId = input.idpEntityId?.trim() ?? '';
  let ssoUrl = input.ssoUrl?.trim() ?? '';
  let idpCertificate = input.idpCertificate?.trim() ?? '';
  let fromMetadata = false;

  if (metadataXml !== undefined && metadataXml.trim() !== '') {
    try {
      const metadata = await parseIdpMetadata(metadataXml);
      ({ entityId: idpEntityId, ssoUrl } = metadata);
      idpCertificate = metadata.certificates.join('');
      fromMetadata = true;
    } catch (err) {
      problems.push({ path: metadataPath, message: `IdP metadata ${(err as Error).message}` });
    }
  }
  const where = (field: string) => (fromMetadata ? metadataPath : `body.${field}`);

  if (ssoUrl !== '') {
    const problem = httpUrlProblem(ssoUrl);
    if (problem) problems.push({ path: where('ssoUrl'), message: `SSO URL ${problem}` });
  }
  if (idpCertificate !== '' && !fromMetadata) {
    try {
      idpCertificate = normaliseCertificates(idpCertificate).join('');
    } catch (err) {
      problems.push({ path: 'body.idpCertificate', message: `certificate ${(err as Error).message}` });
    }
  }
  if (input.enabled && problems.length === 0) {
    const required: Array<[string, string]> = [
      ['idpEntityId', idpEntityId],
      ['ssoUrl', ssoUrl],
      ['idpCertificate', idpCertificate],
    ];
    for (const [field, value] of required) {
      if (value === '') {
        problems.push({
          path: `body.${field}`,
          message: 'is required when SSO is enabled (or give metadataXml or metadataUrl)',
        });
      }
    }
  }
  const mapping = input.attributeMapping ? checkAttributeMapping(input.attributeMapping, problems) : null;
  if (problems.length > 0) {
    const first = problems[0]!;
    throw new ApiError(
      'validation_failed',
      `Invalid SSO configuration: ${first.path} ${first.message}`,
      problems,
    );
  }
  return {
    enabled: input.enabled,
    idpEntityId,
    ssoUrl,
    idpCertificate,
    defaultRole: input.defaultRole,
    ssoRequired: input.ssoRequired,
    attributeMapping: mapping && Object.keys(mapping).length > 0 ? mapping : null,
    metadataUrl,
  };
}
