/** Digests of this form start with this; the older form (canonicalBodyHash) is bare hex. */
export declare const DIGEST_PREFIX: string;
/** `b1:` + SHA-256 (hex) of the parsed body's binary form: equal ⇔ equal after parsing. */
export declare function bodyDigest(body: unknown): string;
