/** JSON with object keys sorted at every depth: equal after parsing ⇔ equal text. */
export declare function canonicalJson(value: unknown): string;
/** SHA-256 (hex) of the canonical JSON of a parsed body. */
export declare function canonicalBodyHash(body: unknown): string;
