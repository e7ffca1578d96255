import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';
import type { DB } from './db.ts';

const MARK = '\u0000warden-arg:';

/** A query compiled once; `bind` gives the parameters for one call's arguments. */
export interface QueryTemplate<A extends string, R> {
  compiled: CompiledQuery<R>;
  bind(args: Record<A, unknown>): unknown[];
}

export type QueryBuilder<A extends string, R> = (db: Kysely<DB>, arg: (name: A) => string) => Compilable<R>;

/**
 * Compile `build` for `db`'s dialect. `build` receives `arg(name)`, a placeholder value to put
 * wherever an argument goes; every other value stays as compiled.
 */
export function queryTemplate<A extends string, R>(
  db: Kysely<DB>,
  build: QueryBuilder<A, R>,
): QueryTemplate<A, R> {
  const compiled = build(db, (name) => `${MARK}${name}`).compile();
  const slots = compiled.parameters.map((p) =>
    typeof p === 'string' && p.startsWith(MARK) ? (p.slice(MARK.length) as A) : null,
  );
  return {
    compiled,
    bind: (args) => slots.map((slot, i) => (slot === null ? compiled.parameters[i] : args[slot])),
  };
}

/**
 * A Kysely query built and compiled once per database, then run with new arguments: for the few
 * queries on the scoring hot path, where building and compiling cost more than running. (A
 * Transaction is a new Kysely instance each time: it would recompile, so run these on the database.)
 */
export function precompiled<A extends string, R>(
  build: QueryBuilder<A, R>,
): (db: Kysely<DB>, args: Record<A, unknown>) => Promise<QueryResult<R>> {
  const cache = new WeakMap<Kysely<DB>, QueryTemplate<A, R>>();
  return (db, args) => {
    let template = cache.get(db);
    if (!template) {
      template = queryTemplate(db, build);
      cache.set(db, template);
    }
    return db.executeQuery<R>({ ...template.compiled, parameters: template.bind(args) });
  };
}
