// Schemas for webhook: filled in by the webhook work.
export {};
