// Schemas for evidence: filled in by the evidence work.
export {};
