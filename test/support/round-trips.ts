import type { Client } from '@libsql/client';
import { drizzle } from 'drizzle-orm/libsql';
import type { Database } from '../../src/db/database.ts';
import type { SqlClient } from '../../src/db/embedded.ts';
import * as schema from '../../src/db/schema.ts';

/**
 * Round trips to the database, counted where the service's drizzle meets the driver: the libSQL client's
 * `execute` and `batch`, which every query and batch of the service's Database comes down to on Bun and Node
 * (an embedded file or a libsql:// server alike). drizzle's D1 driver makes the same one call per query and
 * per batch on workerd (a prepared statement's `all`/`run`/`raw`, the binding's `batch`), so the counts hold
 * there too. Each call is one round trip to a remote database, however many statements a batch holds.
 */
export class RoundTrips {
  count = 0;
  /** Statements sent, every statement of a batch counted (each costs the database its own work). */
  statements = 0;
  /** The most parameters one statement was sent with (D1 binds at most 100). */
  mostParameters = 0;

  #parameters(statements: readonly (string | { args?: unknown[] })[]): void {
    this.statements += statements.length;
    for (const statement of statements) {
      if (typeof statement !== 'string') this.mostParameters = Math.max(this.mostParameters, statement.args?.length ?? 0);
    }
  }

  /** Drizzle over `db`'s own libSQL client, every call counted. */
  libsql(db: Database): Database {
    const client = (db as unknown as { $client: SqlClient }).$client;
    const counted: SqlClient = {
      execute: (statement) => {
        this.count++;
        this.#parameters([statement]);
        return client.execute(statement);
      },
      batch: (statements) => {
        this.count++;
        this.#parameters(statements);
        return client.batch(statements);
      },
      migrate: (statements) => {
        this.count++;
        return client.migrate(statements);
      },
      close: () => client.close(),
    };
    return drizzle(counted as unknown as Client, { schema }) as unknown as Database;
  }

  /** How many round trips `action` made, and how many statements they sent. */
  async during<T>(action: () => Promise<T>): Promise<{ trips: number; statements: number; result: T }> {
    const [before, statementsBefore] = [this.count, this.statements];
    const result = await action();
    return { trips: this.count - before, statements: this.statements - statementsBefore, result };
  }
}
