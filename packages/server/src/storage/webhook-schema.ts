/** Tables of the webhooks area (migration 003, owned by the webhooks work). */
// biome-ignore lint/complexity/noBannedTypes: filled by the webhooks migration
export type WebhookTables = {};
