import { describe, expect, it } from 'vitest';
import { defineRoute } from '../../src/http/route.ts';
import { ROUTES } from '../../src/routes/index.ts';
import { createTestApp } from '../support/app.ts';

/** Pipeline behaviour that needs the app built with a setting or a route of the test's own. */
describe('configured base URL', () => {
  it('builds docs_url from PUBLIC_BASE_URL when it is set', async () => {
    const configured = await createTestApp({ env: { PUBLIC_BASE_URL: 'https://api.example.com/' } });
    const body = await (await configured.call('/api/v1/templates/nope')).json();
    expect(body.error.code).toBe('template_not_found');
    expect(body.error.docs_url).toBe('https://api.example.com/docs/api/errors#template_not_found');
  });
});

describe('internal errors', () => {
  it('answers 500 internal_error without a stack trace or the internal message', async () => {
    const failing = defineRoute({
      method: 'GET',
      path: '/api/v1/fail',
      access: { kind: 'public' },
      versioned: true,
      doc: { operationId: 'fail', summary: 'fail', description: 'fail', tag: 'Meta', responses: {} },
      handle() {
        throw new Error('secret database detail at /srv/app/src/db.ts:12');
      },
    });
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
    try {
      const broken = await createTestApp({ routes: [...ROUTES, failing] });
      const response = await broken.call('/api/v1/fail');
      expect(response.status).toBe(500);
      const text = await response.text();
      const body = JSON.parse(text);
      expect(body.error.code).toBe('internal_error');
      expect(body.credit_used).toBe(false);
      expect(text).not.toContain('secret');
      expect(text).not.toContain('db.ts');
      expect(errors).toHaveLength(1);
    } finally {
      console.error = original;
    }
  });
});
