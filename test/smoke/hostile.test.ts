import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDatabaseFile } from '../support/accounts.ts';
import { finalInvoice } from '../support/documents.ts';
import { freePort, type RunningServer, startBun, startNode } from '../support/processes.ts';
import { type RawAnswer, rawExchange } from '../support/raw-http.ts';

/** The section 7 error shape, with the headers every answer carries. */
function expectContractError(answer: RawAnswer | undefined, status: number, code: string) {
  expect(answer, 'an answer').toBeDefined();
  expect(answer!.status, answer!.body).toBe(status);
  expect(answer!.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(answer!.body);
  expect(body.error.code).toBe(code);
  expect(body.error.request_id).toBe(answer!.headers['svc-request-id']);
  expect(answer!.headers['svc-version']).toBe('2026-10-01');
  return body;
}

describe.each([
  ['Bun', startBun],
  ['Node', startNode],
] as const)('hostile input through the real %s server', (runtime, start) => {
  let server: RunningServer;
  let key: string;
  let port: number;

  beforeAll(async () => {
    const seeded = await seedDatabaseFile({ plan: 'pro', credits: 100 });
    seeded.client.close();
    key = seeded.key;
    port = await freePort();
    server = await start({ DATABASE_URL: seeded.url, LOG_REQUESTS: 'false', RATE_LIMITS_ENABLED: 'false' }, port);
  }, 60_000);

  afterAll(async () => {
    await server.stop();
  });

  const rssKiB = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.process.pid}/status`, 'utf8'))![1]);

  function post(body: BodyInit, headers: Record<string, string> = {}) {
    return fetch(`${server.url}/api/v1/documents/validate`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...headers },
      body,
      duplex: 'half',
    } as RequestInit);
  }

  async function codeOf(response: Response) {
    const body = await response.json();
    return [response.status, body.error?.code, body.error?.details?.[0]?.code];
  }

  /** A body sent in chunks, without Content-Length. */
  function streamed(chunks: number, chunk: Uint8Array, delayMs = 0): ReadableStream<Uint8Array> {
    let sent = 0;
    return new ReadableStream({
      async pull(controller) {
        if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
        if (sent++ >= chunks) controller.close();
        else controller.enqueue(chunk);
      },
    });
  }

  async function stillServing() {
    const response = await fetch(`${server.url}/api/v1/documents`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(finalInvoice()),
    });
    expect(response.status).toBe(201);
    await response.arrayBuffer();
  }

  describe('answers given before the body is read reach a client still sending it', () => {
    it('30 bodies over the limit get 30 × 413, and 30 without Content-Type 30 × 415, on kept-alive connections', async () => {
      const large = new Uint8Array(1_000_000).fill(0x20);
      const statuses: number[] = [];
      for (let sent = 0; sent < 30; sent++) {
        const answer = await fetch(`${server.url}/api/v1/documents/validate`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
          body: large,
        });
        statuses.push(answer.status);
        await answer.arrayBuffer();
      }
      for (let sent = 0; sent < 30; sent++) {
        const answer = await fetch(`${server.url}/api/v1/documents/validate`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${key}` },
          body: large.subarray(0, 100_000),
        });
        statuses.push(answer.status);
        await answer.arrayBuffer();
      }
      expect(statuses).toEqual([...Array(30).fill(413), ...Array(30).fill(415)]);
      await stillServing();
    });
  });

  describe('the sweep', () => {
    it('answers the contract error for each, and keeps serving', async () => {
      const baseline = rssKiB();
      expect(await codeOf(await post(streamed(256, new Uint8Array(16_384).fill(0x20))))).toEqual([413, 'payload_too_large', undefined]);
      expect(await codeOf(await post('['.repeat(60_000) + ']'.repeat(60_000)))).toEqual([400, 'invalid_request', 'malformed_json']);
      expect(await codeOf(await post('['.repeat(100_000)))).toEqual([400, 'invalid_request', 'malformed_json']);
      const manyMembers = `{${Array.from({ length: 1_000_000 }, (_, i) => `"m${i}":0`).join(',')}}`;
      expect(await codeOf(await post(manyMembers))).toEqual([413, 'payload_too_large', undefined]);
      const manyFields = JSON.stringify({
        template: 'invoice',
        mode: 'preview',
        fields: Object.fromEntries(Array.from({ length: 8_000 }, (_, i) => [`f${i}`, 1])),
      });
      expect(await codeOf(await post(manyFields))).toEqual([422, 'validation_failed', 'too_many_fields']);
      const manyParameters = JSON.stringify(Object.fromEntries(Array.from({ length: 8_000 }, (_, i) => [`p${i}`, 1])));
      const parameters = await (await post(manyParameters)).json();
      expect(parameters.error.code).toBe('invalid_request');
      expect(parameters.error.details).toHaveLength(50);
      expect(await codeOf(await post(new Uint8Array([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x3a, 0x31, 0x7d])))).toEqual([
        400,
        'invalid_request',
        'malformed_json',
      ]);
      expect(await codeOf(await post('{"template":"invoice",\u0000"mode":"final"}'))).toEqual([400, 'invalid_request', 'malformed_json']);
      const nul = JSON.stringify({ ...finalInvoice({ seller_name: 'A\u0000B' }), mode: 'preview' });
      expect(await codeOf(await post(nul))).toEqual([422, 'validation_failed', 'invalid_characters']);
      const bigHeader = await fetch(`${server.url}/api/v1/account`, {
        headers: { Authorization: `Bearer ${key}`, 'X-Padding': 'x'.repeat(200_000) },
      }).catch(() => undefined);
      expect(bigHeader?.status ?? 431).toBeGreaterThanOrEqual(400);
      await stillServing();
      console.log(`hostile sweep: server RSS ${Math.round(baseline / 1024)} MiB before, ${Math.round(rssKiB() / 1024)} MiB after`);
      expect(rssKiB() - baseline).toBeLessThan(200_000);
    }, 60_000);

    it('a slow body does not hold up other requests', async () => {
      const slow = post(streamed(20, new TextEncoder().encode('      '), 100));
      const started = performance.now();
      await stillServing();
      expect(performance.now() - started).toBeLessThan(1_000);
      expect((await slow).status).toBe(400);
    }, 30_000);

    it('10,000 connections opened at once and dropped leave it serving, memory back near its baseline', async () => {
      await stillServing();
      const baseline = rssKiB();
      const sockets = await Promise.all(
        Array.from(
          { length: 10_000 },
          () =>
            new Promise<Socket | undefined>((resolve) => {
              const socket = connect(port, '127.0.0.1');
              socket.once('connect', () => resolve(socket));
              socket.once('error', () => resolve(undefined));
              socket.setTimeout(20_000, () => resolve(undefined));
            }),
        ),
      );
      const opened = sockets.filter((socket) => socket !== undefined).length;
      for (const socket of sockets) socket?.destroy();
      expect(opened).toBeGreaterThan(9_000);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await stillServing();
      const after = rssKiB();
      console.log(
        `10,000 connections: ${opened} opened; server RSS ${Math.round(baseline / 1024)} MiB before, ${Math.round(after / 1024)} MiB after`,
      );
      // Node keeps what V8 grew for a while; a leak would grow with every wave, not stay within a quarter.
      expect(after - baseline).toBeLessThan(Math.max(64 * 1024, baseline / 4));
    }, 60_000);
  });

  describe('answers the runtime lets the service give are the contract JSON', () => {
    const head = (lines: string[]) => `${lines.join('\r\n')}\r\n\r\n`;

    it('two Authorization headers are refused as one invalid key (Node used to take the first)', async () => {
      const answer = await rawExchange(
        port,
        head([
          'GET /api/v1/account HTTP/1.1',
          'Host: a',
          `Authorization: Bearer ${key}`,
          `Authorization: Bearer ${key}`,
          'Connection: close',
        ]),
      );
      const body = expectContractError(answer, 401, 'unauthorized');
      expect(body.error.details[0].code).toBe('invalid_key');
    });

    it('a Content-Length of 1,000,000,000 gets 413 payload_too_large, without the body being waited for', async () => {
      const answer = await rawExchange(
        port,
        `${head([
          'POST /api/v1/documents/validate HTTP/1.1',
          'Host: a',
          `Authorization: Bearer ${key}`,
          'Content-Type: application/json',
          'Content-Length: 1000000000',
          'Connection: close',
        ])}{}`,
      );
      expectContractError(answer, 413, 'payload_too_large');
    });

    it.each(['TRACE', 'CONNECT'])('%s gets 405 with Allow on a path that exists, 404 elsewhere', async (method) => {
      const allowed = await rawExchange(port, head([`${method} /api/v1/templates HTTP/1.1`, 'Host: a', 'Connection: close']));
      expectContractError(allowed, 405, 'method_not_allowed');
      expect(allowed!.headers.allow).toBe('GET, OPTIONS');
      expectContractError(
        await rawExchange(port, head([`${method} /api/v1/nope HTTP/1.1`, 'Host: a', 'Connection: close'])),
        404,
        'not_found',
      );
    });

    it('request line and headers over 16 KiB: Node answers 400 invalid_request; Bun answers 431 itself, with no body', async () => {
      const answer = await rawExchange(
        port,
        head(['GET /api/v1/templates HTTP/1.1', 'Host: a', `X-Padding: ${'x'.repeat(20_000)}`, 'Connection: close']),
      );
      if (runtime === 'Node') expectContractError(answer, 400, 'invalid_request');
      else expect([answer?.status, answer?.body]).toEqual([431, '']);
      await stillServing();
    });

    it('TRACK, a method the parser does not know: Node answers 400 invalid_request; Bun closes the connection', async () => {
      const answer = await rawExchange(port, head(['TRACK /api/v1/templates HTTP/1.1', 'Host: a', 'Connection: close']));
      if (runtime === 'Node') expectContractError(answer, 400, 'invalid_request');
      else expect(answer).toBeUndefined();
    });

    it('a header line that is not HTTP: Node answers 400 invalid_request; Bun answers 400 itself, with no body', async () => {
      const answer = await rawExchange(port, head(['GET /api/v1/templates HTTP/1.1', 'Host: a', 'Bad Header: x', 'Connection: close']));
      if (runtime === 'Node') expectContractError(answer, 400, 'invalid_request');
      else expect([answer?.status, answer?.body]).toEqual([400, '']);
    });

    it('without PUBLIC_BASE_URL, the Host the client sent is in openapi.json, which no shared cache may keep', async () => {
      const answer = await rawExchange(port, head(['GET /api/v1/openapi.json HTTP/1.1', 'Host: evil.example', 'Connection: close']));
      expect(answer?.status).toBe(200);
      expect(JSON.parse(answer!.body).servers).toEqual([{ url: 'http://evil.example' }]);
      expect(answer!.headers['cache-control']).toBe('private, max-age=300');
    });

    it('a path that begins with // is a path, not another host (Node used to read it as one)', async () => {
      const answer = await rawExchange(
        port,
        head(['GET //evil.example/api/v1/openapi.json HTTP/1.1', 'Host: good.example', 'Connection: close']),
      );
      expectContractError(answer, 404, 'not_found');
      expect(answer!.body).not.toContain('evil.example');
    });
  });
});
