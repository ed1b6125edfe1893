import { describe, expect, it } from 'vitest';
import { json } from '../../src/http/respond.ts';
import { defineRoute } from '../../src/http/route.ts';
import { ROUTES } from '../../src/routes/index.ts';
import { seedCaller } from '../support/accounts.ts';
import { createTestApp } from '../support/app.ts';

describe('403 forbidden_scope', () => {
  it('refuses a valid key that lacks the route scope', async () => {
    const finalsOnly = defineRoute({
      method: 'POST',
      path: '/api/v1/scope-probe',
      access: { kind: 'key', scope: 'documents:create' },
      versioned: true,
      doc: { operationId: 'probe', summary: 'probe', description: 'probe', tag: 'Meta', responses: {} },
      handle: () => json({ ok: true }),
    });
    const probeApp = await createTestApp({ routes: [...ROUTES, finalsOnly] });
    const preview = await seedCaller(probeApp, { kind: 'preview' });
    const full = await seedCaller(probeApp, { kind: 'full' });
    const refused = await probeApp.call('/api/v1/scope-probe', { method: 'POST', headers: preview.headers });
    expect(refused.status).toBe(403);
    const body = await refused.json();
    expect(body.error.code).toBe('forbidden_scope');
    expect(body.error.details).toEqual([expect.objectContaining({ code: 'missing_scope' })]);
    expect((await probeApp.call('/api/v1/scope-probe', { method: 'POST', headers: full.headers })).status).toBe(200);
  });
});
