import SqliteDatabase from 'better-sqlite3';

const proto = SqliteDatabase.prototype as unknown as { prepare: (sql: string) => unknown };
const orig = proto.prepare;
const caches = new WeakMap<object, Map<string, unknown>>();
proto.prepare = function (this: object, sql: string) {
  let c = caches.get(this);
  if (!c) {
    c = new Map();
    caches.set(this, c);
  }
  let s = c.get(sql);
  if (!s) {
    s = orig.call(this, sql);
    c.set(sql, s);
  }
  return s;
};
