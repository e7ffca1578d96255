import { type Static, type TSchema, Type } from '@sinclair/typebox';
import type { Role } from '../permissions.ts';

/**
 * Accounts, workspaces, sites, members and invitations of the management API (SPEC §6, §9): the
 * schemas the server validates and documents with, and the types of the answers the dashboard reads.
 */

/** The success envelope of interface 2.1 around `data`, as the management routes document it. */
export function ManagementEnvelope<T extends TSchema>(data: T) {
  return Type.Object({
    success: Type.Literal(true),
    data,
    timestamp: Type.String({ format: 'date-time' }),
  });
}

export const IsoTime = Type.String({ format: 'date-time' });
export const RoleSchema = Type.Union([
  Type.Literal('owner'),
  Type.Literal('analyst'),
  Type.Literal('viewer'),
]);
export const PlanSchema = Type.Union([Type.Literal('free'), Type.Literal('pro'), Type.Literal('enterprise')]);
/** A non-blank display name. */
export const NameSchema = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' });
export const EmailSchema = Type.String({ minLength: 3, maxLength: 320, pattern: '^[^\\s@]+@[^\\s@]+$' });
export const PasswordSchema = Type.String({ minLength: 1, maxLength: 1024 });
/** New passwords set through the API must be at least 8 characters. */
export const NewPasswordSchema = Type.String({ minLength: 8, maxLength: 1024 });
export const IdSchema = Type.String({ minLength: 1, maxLength: 128 });

export const MembershipSchema = Type.Object({
  workspaceId: Type.String(),
  workspaceName: Type.String(),
  role: RoleSchema,
  plan: PlanSchema,
});
export type Membership = Static<typeof MembershipSchema>;

export const UserSchema = Type.Object({
  id: Type.String(),
  email: Type.String(),
  name: Type.String(),
  createdAt: IsoTime,
  memberships: Type.Array(MembershipSchema),
});
export type User = Static<typeof UserSchema>;

export const WorkspaceSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  plan: PlanSchema,
  demo: Type.Boolean(),
  role: RoleSchema,
  createdAt: IsoTime,
  updatedAt: IsoTime,
});
/** A workspace as its member sees it (with their role). */
export type Workspace = Static<typeof WorkspaceSchema>;

export const MemberSchema = Type.Object({
  userId: Type.String(),
  email: Type.String(),
  name: Type.String(),
  role: RoleSchema,
  joinedAt: IsoTime,
});
export type Member = Static<typeof MemberSchema>;

/** Origins are checked beyond the schema by the server (exact browser origins only). */
export const OriginsSchema = Type.Array(Type.String({ minLength: 1, maxLength: 2048 }), { maxItems: 100 });

export const SiteSettingsSchema = Type.Object(
  { powFloor: Type.Optional(Type.Integer({ minimum: 1, maximum: 26 })) },
  { additionalProperties: false },
);

/** PATCH settings: a key set to null goes back to the instance default. */
export const SiteSettingsPatchSchema = Type.Object(
  { powFloor: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 26 }), Type.Null()])) },
  { additionalProperties: false },
);

export const SiteSchema = Type.Object({
  id: Type.String(),
  workspaceId: Type.String(),
  name: Type.String(),
  siteKey: Type.String(),
  allowedOrigins: Type.Array(Type.String()),
  settings: SiteSettingsSchema,
  createdAt: IsoTime,
  updatedAt: IsoTime,
});
export type Site = Static<typeof SiteSchema>;

/** POST /api/sites: the site, with its secret key shown this once. */
export interface CreatedSite extends Site {
  siteId: string;
  secretKey: string;
}

/** POST /api/sites/{id}/rotate-keys */
export interface RotatedKeys {
  siteId: string;
  siteKey: string;
  secretKey: string;
  rotatedAt: string;
}

/** POST /api/auth/login (and the SSO and invitation sign-ins). */
export interface LoginResult {
  user: User;
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
}

export interface Invitation {
  id: string;
  email: string;
  role: Role;
  createdAt: string;
  expiresAt: string;
}

/** GET /api/invitations/{token}: what the invited person is shown before accepting. */
export interface InvitationPreview {
  email: string;
  role: Role;
  workspaceId: string;
  workspaceName: string;
  expiresAt: string;
}
