// The management API's contract (SPEC §6, §9–§11): request schemas the server validates with and
// documents, and the answers the dashboard reads. `@warden/protocol/management`; the dashboard
// imports it for types only (TypeBox stays out of its bundle).
export * from './admin.ts';
export * from './decisions.ts';
export * from './entities.ts';
export * from './rules.ts';
export * from './sso.ts';
export * from './workspace.ts';
