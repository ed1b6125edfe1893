import { eq } from 'drizzle-orm';
import { apiKeys } from '../../src/db/schema.ts';
import type { TestApp } from './app.ts';

/** A key's own buckets (src/limits/key-counters.ts): the columns of its window's start and of its count. */
const COLUMNS = {
  requests: { start: 'requestsWindowStart', count: 'requestsInWindow' },
  finals: { start: 'finalsWindowStart', count: 'finalsInWindow' },
} as const;
type KeyBucket = keyof typeof COLUMNS;

/** Sets a key's own bucket to `count` in the current window (a minute), as if earlier requests had used it. */
export async function seedKeyBucket(app: TestApp, keyId: string, bucket: KeyBucket, count: number): Promise<void> {
  const { start, count: counted } = COLUMNS[bucket];
  const minute = app.clock.now() - (app.clock.now() % 60_000);
  await app.db
    .update(apiKeys)
    .set({ [start]: minute, [counted]: count })
    .where(eq(apiKeys.id, keyId));
}

/** A key's own bucket as stored: the start of the window it counts in, and its count. */
export async function keyBucket(app: TestApp, keyId: string, bucket: KeyBucket): Promise<{ start: number | null; count: number }> {
  const [row] = await app.db.select().from(apiKeys).where(eq(apiKeys.id, keyId));
  const { start, count } = COLUMNS[bucket];
  return { start: row![start], count: row![count] };
}
