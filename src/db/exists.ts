import { sql } from 'drizzle-orm';

/**
 * `EXISTS`, kept a subquery that SQLite tries as it meets it. A newer SQLite (3.54, Bun's) turns a WHERE's EXISTS
 * term into a join over the table it reads, and the service's INSERT … SELECT statements, whose WHERE is such terms,
 * then took three to seven times as long: a lease's INSERT about 100 µs instead of 15, a record's 60 instead of 22
 * (docs/scaling.md). The unary plus leaves the value as it is (0 or 1, never NULL) and the term an expression.
 */
export const EXISTS = sql.raw('+EXISTS');
