import fc from 'fast-check';

/** The parts of a JSON schema (TypeBox output) the generator reads. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  additionalProperties?: boolean | JsonSchema;
}

/** Strings that have hurt HTTP services: control bytes, huge, unicode edge cases, injections. */
const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  '\uFEFF',
  '\uD800',
  '💥'.repeat(50),
  'a'.repeat(10_000),
  '../../etc/passwd',
  "' OR 1=1 --",
  '{{7*7}}',
  '<script>alert(1)</script>',
  '%00',
  'null',
  '-1',
  '1e309',
  '__proto__',
  'constructor',
];

const nastyString = fc.oneof(fc.constantFrom(...NASTY_STRINGS), fc.string({ unit: 'binary', maxLength: 40 }));
const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.double(),
  fc.integer(),
  nastyString,
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.constantFrom('a', '__proto__', 'constructor', 'x'), fc.integer(), { maxKeys: 2 }),
);

function firstType(schema: JsonSchema): string | undefined {
  return Array.isArray(schema.type) ? schema.type[0] : schema.type;
}

/**
 * Values that mostly satisfy `schema` (so requests get past validation into the handlers), with
 * `depth` bounding recursion. `pick(name)` may supply a known-good value for a property by name
 * (a real site id, say), used half of the time.
 */
export function valueFor(
  schema: JsonSchema,
  pick: (name: string) => unknown = () => undefined,
  depth = 0,
): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const union = schema.anyOf ?? schema.oneOf;
  if (union && union.length > 0) return fc.oneof(...union.map((s) => valueFor(s, pick, depth + 1)));
  if (schema.allOf && schema.allOf.length > 0) return valueFor(schema.allOf[0]!, pick, depth + 1);
  switch (firstType(schema)) {
    case 'string':
      return fc.oneof(
        {
          weight: 3,
          arbitrary: fc.string({
            minLength: schema.minLength ?? 0,
            maxLength: Math.min(schema.maxLength ?? 24, 24),
          }),
        },
        { weight: 1, arbitrary: nastyString },
      );
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1_000_000, max: schema.maximum ?? 1_000_000 });
    case 'number':
      return fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer());
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      if (depth > 3) return fc.constant([]);
      if (schema.prefixItems) return fc.tuple(...schema.prefixItems.map((s) => valueFor(s, pick, depth + 1)));
      const item = schema.items ? valueFor(schema.items, pick, depth + 1) : anyJson;
      return fc.array(item, { maxLength: Math.min(schema.maxItems ?? 4, 4) });
    }
    case 'object': {
      if (depth > 3) return fc.constant({});
      const props = schema.properties ?? {};
      const required = new Set(schema.required ?? []);
      const entries = Object.entries(props).map(([name, s]) => {
        const known = pick(name);
        const value =
          known === undefined
            ? valueFor(s, pick, depth + 1)
            : fc.oneof(fc.constant(known), valueFor(s, pick, depth + 1));
        return [name, required.has(name) ? value : fc.option(value, { nil: undefined })] as const;
      });
      return fc
        .record(Object.fromEntries(entries))
        .map((o) =>
          Object.fromEntries(Object.entries(o as Record<string, unknown>).filter(([, v]) => v !== undefined)),
        );
    }
    default:
      return anyJson;
  }
}

/** A value that breaks `schema` in one of the ways clients do: wrong type, extra keys, nothing. */
export function mutationOf(valid: unknown): fc.Arbitrary<unknown> {
  const asObject =
    valid !== null && typeof valid === 'object' && !Array.isArray(valid)
      ? (valid as Record<string, unknown>)
      : {};
  const keys = Object.keys(asObject);
  return fc.oneof(
    anyJson,
    fc.constant(undefined),
    fc
      .record({ key: fc.constantFrom('__proto__', 'extra', 'constructor', ''), value: anyJson })
      .map(({ key, value }) => {
        const copy: Record<string, unknown> = { ...asObject };
        Object.defineProperty(copy, key, { value, enumerable: true, configurable: true, writable: true });
        return copy;
      }),
    keys.length === 0
      ? anyJson
      : fc
          .record({ key: fc.constantFrom(...keys), value: anyJson })
          .map(({ key, value }) => ({ ...asObject, [key]: value })),
  );
}
