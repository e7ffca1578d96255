// Schemas for scoring: filled in by the scoring work.
export {};
