export type Dialect = 'sqlite' | 'postgres';

/** Epoch-millisecond columns: bigint on PostgreSQL (parsed back to number), integer on SQLite. */
export function timeType(dialect: Dialect): 'bigint' | 'integer' {
  return dialect === 'postgres' ? 'bigint' : 'integer';
}
