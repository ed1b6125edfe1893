import type { FetchHandler } from '../../src/app.ts';
import { fixtureText } from '../support/requests.ts';

const body = fixtureText('reference-invoice.json');

/**
 * The reference invoice as a final with `key` and the Idempotency-Key `idempotencyKey`, through a fetch handler in
 * this process (a new key: the load bench's "POST final (new key)"; one used before: a replay), its answer read
 * whole; throws unless it is a 201.
 */
export async function sendFinal(fetch: FetchHandler, key: string, idempotencyKey: string): Promise<void> {
  const response = await fetch(
    new Request('http://localhost/api/v1/documents', {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', 'Idempotency-Key': idempotencyKey },
      body,
    }),
  );
  await response.arrayBuffer();
  if (response.status !== 201) throw new Error(`a final answered ${response.status}`);
}
