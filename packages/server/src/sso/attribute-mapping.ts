import type { AttributeMapping } from '@warden/protocol/management';
import type { ErrorDetail } from '../errors.ts';

export const DEFAULT_ATTRIBUTE_MAPPING: AttributeMapping = {
  email: [
    'email',
    'mail',
    'emailaddress',
    'urn:oid:0.9.2342.19200300.100.1.3',
    'urn:mace:dir:attribute-def:mail',
    'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
  ],
  name: [
    'displayName',
    'name',
    'cn',
    'urn:oid:2.16.840.1.113730.3.1.241',
    'urn:mace:dir:attribute-def:displayName',
    'urn:oid:2.5.4.3',
    'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name',
  ],
};

export const MAX_MAPPED_ATTRIBUTES = 10;
export const MAX_ATTRIBUTE_NAME_LENGTH = 256;

/** The stored mapping (JSON, null for the defaults); a list left out keeps its defaults. */
export function attributeMappingOf(stored: string | null): AttributeMapping {
  if (stored === null) return DEFAULT_ATTRIBUTE_MAPPING;
  const parsed = JSON.parse(stored) as Partial<AttributeMapping>;
  return {
    email: parsed.email?.length ? parsed.email : DEFAULT_ATTRIBUTE_MAPPING.email,
    name: parsed.name?.length ? parsed.name : DEFAULT_ATTRIBUTE_MAPPING.name,
  };
}

/**
 * Check a mapping given in the PUT body: each list 1–10 distinct, non-empty attribute names (as
 * the IdP sends them; compared without regard to case). Problems are added to `problems`.
 */
export function checkAttributeMapping(
  input: Partial<AttributeMapping>,
  problems: ErrorDetail[],
): Partial<AttributeMapping> {
  const out: Partial<AttributeMapping> = {};
  for (const key of ['email', 'name'] as const) {
    const list = input[key];
    if (list === undefined) continue;
    const path = `body.attributeMapping.${key}`;
    const names = list.map((n) => n.trim());
    if (names.length === 0 || names.length > MAX_MAPPED_ATTRIBUTES) {
      problems.push({ path, message: `must list 1 to ${MAX_MAPPED_ATTRIBUTES} attribute names` });
      continue;
    }
    const bad = names.findIndex((n) => n === '' || n.length > MAX_ATTRIBUTE_NAME_LENGTH || /\s/.test(n));
    if (bad !== -1) {
      problems.push({
        path: `${path}.${bad}`,
        message: `must be an attribute name of 1 to ${MAX_ATTRIBUTE_NAME_LENGTH} characters without spaces`,
      });
      continue;
    }
    if (new Set(names.map((n) => n.toLowerCase())).size !== names.length) {
      problems.push({ path, message: 'lists an attribute name twice' });
      continue;
    }
    out[key] = names;
  }
  return out;
}

/** The first value of the first listed attribute that has one (names compared without case). */
export function mappedValues(attributes: Record<string, unknown>, names: readonly string[]): string[] {
  const byName = new Map(Object.entries(attributes).map(([k, v]) => [k.toLowerCase(), v]));
  const values: string[] = [];
  for (const name of names) {
    for (const value of [byName.get(name.toLowerCase())].flat()) {
      if (typeof value === 'string' && value.trim() !== '') values.push(value.trim());
    }
  }
  return values;
}
