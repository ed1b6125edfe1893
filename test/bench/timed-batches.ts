import type { Database } from '../../src/db/database.ts';

/**
 * The service's database with every batch timed: since this issue each round trip of a keyed request is one
 * batch (the sign-in's, then the commit's), so these are the durations of its round trips. The same wrapper on
 * an embedded file (in process) and on D1 (inside workerd, d1-worker.ts).
 */
export function timedBatches(db: Database, record: (ms: number) => void): Database {
  return new Proxy(db, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property !== 'batch') return value;
      return async (queries: Parameters<Database['batch']>[0]) => {
        const started = performance.now();
        const answers = await (value as Database['batch']).call(target, queries);
        record(performance.now() - started);
        return answers;
      };
    },
  });
}
