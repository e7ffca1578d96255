import { type TSchema, Type } from '@sinclair/typebox';

/** TypeBox schemas shared by the auth, workspace, site and member routes. */

/** The success envelope of interface 2.1 around `data`. */
export function Envelope<T extends TSchema>(data: T) {
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

export const UserSchema = Type.Object({
  id: Type.String(),
  email: Type.String(),
  name: Type.String(),
  createdAt: IsoTime,
  memberships: Type.Array(
    Type.Object({
      workspaceId: Type.String(),
      workspaceName: Type.String(),
      role: RoleSchema,
      plan: PlanSchema,
    }),
  ),
});

export const WorkspaceSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  plan: PlanSchema,
  demo: Type.Boolean(),
  role: RoleSchema,
  createdAt: IsoTime,
  updatedAt: IsoTime,
});

export const MemberSchema = Type.Object({
  userId: Type.String(),
  email: Type.String(),
  name: Type.String(),
  role: RoleSchema,
  joinedAt: IsoTime,
});

/** Origins are checked beyond the schema by normaliseOrigins() (exact browser origins only). */
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

export const bearer = [{ bearer: [] }];
