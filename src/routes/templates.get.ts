import { ApiError } from '../contract/api-error.ts';
import { json } from '../http/respond.ts';
import { defineRoute } from '../http/route.ts';
import { TEMPLATE_EXAMPLE } from '../openapi/examples.ts';
import { findTemplate, TEMPLATES } from '../templates/registry.ts';
import { templateObject } from '../templates/template.ts';

export const getTemplateRoute = defineRoute({
  method: 'GET',
  path: '/api/v1/templates/{slug}',
  access: { kind: 'public' },
  versioned: true,
  doc: {
    operationId: 'getTemplate',
    summary: 'Get one template',
    description: 'Returns one template with its fields schema (JSON Schema 2020-12), rules and example.',
    tag: 'Templates',
    parameters: [
      {
        name: 'slug',
        in: 'path',
        required: true,
        description: 'Template slug.',
        schema: { type: 'string', enum: TEMPLATES.map((t) => t.slug) },
      },
    ],
    responses: { 200: { description: 'The template.', schema: { $ref: '#/components/schemas/Template' }, example: TEMPLATE_EXAMPLE } },
    errors: ['template_not_found'],
  },
  handle({ params }) {
    const template = findTemplate(params.slug ?? '');
    if (!template) throw new ApiError('template_not_found', { message: `No template "${params.slug}"; use GET /api/v1/templates.` });
    return json(templateObject(template));
  },
});
