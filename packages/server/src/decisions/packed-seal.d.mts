/** The format rows are sealed in (4), with format 4's dictionary; packed-row.ts reads formats 1 to 4. */
export declare const PACKED_FORMAT: number;

/**
 * What packDecision leaves in `packed` for the writer to seal: the body's JSON, whether the body
 * holds the signals' descriptions (`signals` is stored without them) and whether its features hold
 * the user agent (`user_agent` is stored '').
 */
export interface PendingPack {
  body: string;
  strip: boolean;
  /** With `strip`, the stored `signals` (without descriptions), when packing built it already. */
  signals?: string;
  blankUserAgent: boolean;
}

/** The `signals` JSON without the descriptions (the packed body holds them). */
export declare function withoutDescriptions(signals: string): string;

/** The columns whose values sealing may change. */
export declare const SEALED_COLUMNS: readonly [
  'packed',
  'packed_evidence',
  'signals',
  'user_agent',
  'workspace_id',
];
export type SealedColumn = (typeof SEALED_COLUMNS)[number];

/** `json` deflated with `dictionary`, the format byte first. */
export declare function sealJson(json: string, format: number, dictionary: Uint8Array): Uint8Array;

/** The insert parameters of a decision, sealed (a new array); `slots`: each sealed column's index. */
export declare function sealDecisionParams(
  params: readonly unknown[],
  slots: Record<SealedColumn, number>,
  dictionary: Uint8Array,
): unknown[];

/** A decision row, sealed (a new object). */
export declare function sealDecisionRow<R extends object>(row: R, dictionary: Uint8Array): R;
