import { databaseUnavailable } from '../db/failures.ts';

/**
 * What the operator is told when the database, not the command, failed: whether anything may have been changed
 * and what to do. Undefined for any other error. The CLI adds the driver's description; the operator API logs it.
 */
export function databaseFailureMessage(error: unknown): string | undefined {
  const unavailable = databaseUnavailable(error);
  if (!unavailable) return undefined;
  return unavailable.nothingWritten
    ? 'the database is busy or cannot be reached; nothing was changed. Try again.'
    : 'the database connection failed; the change may or may not have been made. Check before trying again.';
}
