import { type Compilable, CompiledQuery, type Kysely } from 'kysely';
import type { DB } from './db.ts';

/** Rows per statement: a group commit's batch fits in one; bounds the compiled statements kept. */
export const MAX_ROWS_PER_INSERT = 128;

const MARK = '\u0000warden-cell:';

/** One row of placeholders: each column's value stands for that column of one bound row. */
export type RowOfCells<C extends string> = Record<C, string>;

interface Compiled {
  sql: string;
  /** Per parameter: the row-major cell it takes (≥ 0), or -1 - i for the i-th built-in value. */
  slots: Int32Array;
  constants: unknown[];
}

/**
 * A multi-row statement (an INSERT of `columns`, with an ON CONFLICT or RETURNING as `build` makes
 * it) compiled by Kysely once per row count, then bound by taking each row's columns (a column a
 * row lacks is NULL): building and compiling a 28-column, 20-row insert on every group commit cost
 * more than running it. More than `MAX_ROWS_PER_INSERT` rows make several statements. Kysely's
 * tree of the statement is not kept, only its SQL.
 */
export function multiRowStatement<C extends string, R>(
  db: Kysely<DB>,
  columns: readonly C[],
  build: (db: Kysely<DB>, rows: Array<RowOfCells<C>>) => Compilable<R>,
): (rows: ReadonlyArray<Partial<Record<C, unknown>>>) => Array<CompiledQuery<R>> {
  const width = columns.length;
  const byCount = new Map<number, Compiled>();
  const compile = (count: number): Compiled => {
    const rows = Array.from(
      { length: count },
      (_, r) => Object.fromEntries(columns.map((c, i) => [c, `${MARK}${r * width + i}`])) as RowOfCells<C>,
    );
    const query = build(db, rows).compile();
    const constants: unknown[] = [];
    const slots = Int32Array.from(query.parameters, (p) => {
      if (typeof p === 'string' && p.startsWith(MARK)) return Number(p.slice(MARK.length));
      constants.push(p);
      return -constants.length;
    });
    return { sql: query.sql, slots, constants };
  };
  return (rows) => {
    const statements: Array<CompiledQuery<R>> = [];
    for (let start = 0; start < rows.length; start += MAX_ROWS_PER_INSERT) {
      const chunk = rows.slice(start, start + MAX_ROWS_PER_INSERT);
      let compiled = byCount.get(chunk.length);
      if (!compiled) {
        compiled = compile(chunk.length);
        byCount.set(chunk.length, compiled);
      }
      const cells: unknown[] = new Array(chunk.length * width);
      let i = 0;
      for (const row of chunk) for (const c of columns) cells[i++] = row[c] ?? null;
      const { slots, constants } = compiled;
      const parameters = Array.from(slots, (s) => (s >= 0 ? cells[s] : constants[-s - 1]));
      statements.push(CompiledQuery.raw(compiled.sql, parameters) as CompiledQuery<R>);
    }
    return statements;
  };
}

/** `multiRowStatement` of a plain INSERT of `columns` into `table`. */
export function multiRowInsert<T extends keyof DB & string>(
  db: Kysely<DB>,
  table: T,
  columns: ReadonlyArray<keyof DB[T] & string>,
) {
  return multiRowStatement(db, columns, (db, rows) => db.insertInto(table).values(rows as never));
}
