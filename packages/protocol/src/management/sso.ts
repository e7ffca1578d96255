import { Type } from '@sinclair/typebox';
import type { Role } from '../permissions.ts';
import { IdSchema, RoleSchema } from './workspace.ts';

/** TypeBox schemas of the single sign-on routes (a contract with the dashboard). */

export const WorkspaceParams = Type.Object({ id: IdSchema });
export const SamlParams = Type.Object({ workspaceId: IdSchema });

const AttributeNames = Type.Array(Type.String({ maxLength: 256 }), { maxItems: 10 });

export const SsoConfigBody = Type.Object(
  {
    enabled: Type.Boolean(),
    idpEntityId: Type.Optional(Type.String({ maxLength: 1024, description: 'The IdP entity id (Issuer).' })),
    ssoUrl: Type.Optional(
      Type.String({ maxLength: 2048, description: 'IdP single sign-on URL (HTTP-Redirect), http or https.' }),
    ),
    idpCertificate: Type.Optional(
      Type.String({
        maxLength: 16_384,
        description:
          'IdP signing certificate(s): PEM or bare base64 X.509. Several PEM blocks (up to 4, e.g. the old and the new one during a key rollover): a signature by any of them is accepted.',
      }),
    ),
    metadataXml: Type.Optional(
      Type.String({
        maxLength: 90_000,
        description:
          'IdP metadata XML. When given, entity id, SSO URL (HTTP-Redirect) and signing certificate are taken from it.',
      }),
    ),
    metadataUrl: Type.Optional(
      Type.String({
        maxLength: 2048,
        description:
          'URL of the IdP metadata (https on 443, a public address; the same rules as webhook URLs). Read now (entity id, SSO URL and certificates come from it, unless `metadataXml` is given), read again when a sign-in starts and the last read is over a day old, and on POST /api/workspaces/{id}/sso/metadata/refresh. Empty: none.',
      }),
    ),
    attributeMapping: Type.Optional(
      Type.Object(
        {
          email: Type.Optional(AttributeNames),
          name: Type.Optional(AttributeNames),
        },
        {
          additionalProperties: false,
          description:
            'SAML attribute names that carry the e-mail address and the display name, in order of preference (a list left out keeps the defaults).',
        },
      ),
    ),
    defaultRole: RoleSchema,
    ssoRequired: Type.Boolean({
      description: 'Refuse password login to non-owner members (owners keep it as break-glass).',
    }),
  },
  { additionalProperties: false },
);

export const SsoConfigSchema = Type.Object({
  workspaceId: Type.String(),
  configured: Type.Boolean(),
  enabled: Type.Boolean(),
  idpEntityId: Type.String(),
  ssoUrl: Type.String(),
  idpCertificate: Type.String({
    description: 'Every trusted signing certificate, PEM block after PEM block.',
  }),
  idpCertificates: Type.Array(Type.String(), { description: 'The same certificates one by one.' }),
  defaultRole: RoleSchema,
  ssoRequired: Type.Boolean(),
  attributeMapping: Type.Object({ email: Type.Array(Type.String()), name: Type.Array(Type.String()) }),
  updatedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  metadataUrl: Type.Union([Type.String(), Type.Null()]),
  metadataFetchedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  metadataError: Type.Union([Type.String(), Type.Null()]),
  sp: Type.Object({
    entityId: Type.String(),
    acsUrl: Type.String(),
    metadataUrl: Type.String(),
    loginUrl: Type.String(),
  }),
});

/** The ACS form fields (application/x-www-form-urlencoded). */
export const AcsBody = Type.Object({
  SAMLResponse: Type.String({ minLength: 1 }),
  RelayState: Type.Optional(Type.String()),
});

/** The SAML attribute names that carry the e-mail address and the display name, in order of preference. */
export interface AttributeMapping {
  email: string[];
  name: string[];
}

/** The service provider's endpoints a workspace gives its identity provider. */
export interface SpEndpoints {
  /** SP entity id; also the metadata URL, so an IdP can fetch it. */
  entityId: string;
  /** Assertion Consumer Service: where the IdP posts its SAMLResponse. */
  acsUrl: string;
  metadataUrl: string;
  /** SP-initiated sign-in: redirects to the IdP. */
  loginUrl: string;
}

/** The workspace's SSO settings as stored (after validation and metadata parsing). */
export interface SsoSettings {
  enabled: boolean;
  idpEntityId: string;
  ssoUrl: string;
  idpCertificate: string;
  defaultRole: Role;
  ssoRequired: boolean;
  /** The attribute names given (a list left out keeps the defaults); null: all defaults. */
  attributeMapping: Partial<AttributeMapping> | null;
  /** Where the IdP metadata was read from (entity id, SSO URL and certificates come from it); null: pasted. */
  metadataUrl: string | null;
}

/** The answer of GET/PUT /api/workspaces/{id}/sso. */
export interface SsoConfigView extends Omit<SsoSettings, 'attributeMapping'> {
  /** When the metadata URL was last read successfully, and the last refresh's error (null: none). */
  metadataFetchedAt: string | null;
  metadataError: string | null;
  /** The attribute names in effect (the defaults where none were given). */
  attributeMapping: AttributeMapping;
  workspaceId: string;
  /** The trusted signing certificates one by one (`idpCertificate` holds them all, PEM after PEM). */
  idpCertificates: string[];
  configured: boolean;
  updatedAt: string | null;
  sp: SpEndpoints;
}

/** The body of PUT /api/workspaces/{id}/sso as the dashboard sends it. */
export interface SsoUpdate {
  enabled: boolean;
  idpEntityId?: string;
  ssoUrl?: string;
  idpCertificate?: string;
  metadataXml?: string;
  metadataUrl?: string;
  defaultRole: Role;
  ssoRequired: boolean;
}
