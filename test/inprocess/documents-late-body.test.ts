import { describe, expect, it } from 'vitest';
import { generateKey } from '../../src/auth/key-format.ts';
import { seedCaller } from '../support/accounts.ts';
import { BASE, createTestApp } from '../support/app.ts';
import { expectError, finalInvoice, ledger } from '../support/documents.ts';
import { RoundTrips } from '../support/round-trips.ts';

/**
 * POST /api/v1/documents sends the document's statements with the sign-in, so it reads the body first, but only
 * for a while: a body still arriving after that is read once the key is checked.
 */

/** A request body that sends `text` after `delayMs`, or never (undefined). */
function bodySent(text: string | undefined, delayMs = 0): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      if (text === undefined) return;
      setTimeout(() => {
        controller.enqueue(new TextEncoder().encode(text));
        controller.close();
      }, delayMs);
    },
  });
}

function post(headers: Record<string, string>, body: ReadableStream<Uint8Array>, key?: string): Request {
  return new Request(`${BASE}/api/v1/documents`, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json', ...(key === undefined ? {} : { 'Idempotency-Key': key }) },
    body,
    duplex: 'half',
  } as RequestInit);
}

describe('POST /api/v1/documents with a body that is slow to arrive', () => {
  it('answers 401 to a key that is not valid while its body never ends', async () => {
    const app = await createTestApp({ config: { rateLimitsEnabled: true } });
    const response = await app.fetch(post({ Authorization: `Bearer ${generateKey()}` }, bodySent(undefined)));
    await expectError(response, 401, 'unauthorized');
  });

  it.each([
    ['on', true],
    ['off', false],
  ])(
    'makes and charges a final whose body comes after the sign-in (rate limits %s), in one round trip more',
    async (_, rateLimitsEnabled) => {
      const trips = new RoundTrips();
      const app = await createTestApp({ config: { rateLimitsEnabled }, wrapDb: (db) => trips.libsql(db) });
      const caller = await seedCaller(app, { credits: 1 });
      const { trips: made, result } = await trips.during(() =>
        app.fetch(post(caller.headers, bodySent(JSON.stringify(finalInvoice()), 1_500), 'late-1')),
      );
      expect(result.status, await result.clone().text()).toBe(201);
      expect(result.headers.get('Svc-Credit-Used')).toBe('true');
      // One more than on time; with rate limits off a key's first use writes last_used_at in a round trip of its own.
      expect(made).toBe(rateLimitsEnabled ? 3 : 4);
      expect(await ledger(app, caller)).toMatchObject({ credits: 0, documents: 1 });

      const replayed = await app.fetch(post(caller.headers, bodySent(JSON.stringify(finalInvoice()), 1_500), 'late-1'));
      expect(replayed.status).toBe(201);
      expect(replayed.headers.get('Svc-Idempotent-Replay')).toBe('true');
      expect(replayed.headers.get('Svc-Document-Id')).toBe(result.headers.get('Svc-Document-Id'));
      expect(await ledger(app, caller)).toMatchObject({ credits: 0, documents: 1 });

      const refused = await app.fetch(post(caller.headers, bodySent(JSON.stringify(finalInvoice({ invoice_number: 'INV-2' })), 1_500)));
      await expectError(refused, 402, 'insufficient_credits');
      expect(await ledger(app, caller)).toMatchObject({ credits: 0, documents: 1 });
    },
  );

  it('refuses a late body that is no document request in the contract order, nothing charged', async () => {
    const app = await createTestApp({ config: { rateLimitsEnabled: true } });
    const caller = await seedCaller(app, { credits: 1 });
    const malformed = await app.fetch(post(caller.headers, bodySent('{"template":', 1_500)));
    await expectError(malformed, 400, 'invalid_request');
    const invalid = await app.fetch(post(caller.headers, bodySent(JSON.stringify(finalInvoice({ currency: 'XXX' })), 1_500)));
    await expectError(invalid, 422, 'validation_failed');
    expect(await ledger(app, caller)).toMatchObject({ credits: 1, documents: 0 });
  });
});
