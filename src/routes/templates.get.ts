import * as v from 'valibot';
import { ApiError } from '../contract/api-error.ts';
import { defineParameter, readParameters } from '../http/parameters.ts';
import { json } from '../http/respond.ts';
import { defineRoute } from '../http/route.ts';
import { TEMPLATE_EXAMPLE } from '../openapi/examples.ts';
import { findTemplate, TEMPLATES } from '../templates/registry.ts';
import { templateObject } from '../templates/template.ts';

/** A template's slug in the path: one of the registry's; another is answered template_not_found. */
const TEMPLATE_SLUG = defineParameter({
  name: 'slug',
  in: 'path',
  description: 'Template slug.',
  schema: v.picklist(TEMPLATES.map((template) => template.slug)),
  refusal: (sent) => new ApiError('template_not_found', { message: `No template "${sent}"; use GET /api/v1/templates.` }),
  errors: ['template_not_found'],
});

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
    responses: { 200: { description: 'The template.', schema: { $ref: '#/components/schemas/Template' }, example: TEMPLATE_EXAMPLE } },
  },
  parameters: [TEMPLATE_SLUG],
  handle(context) {
    const { slug } = readParameters([TEMPLATE_SLUG], context);
    return json(templateObject(findTemplate(slug)!));
  },
});
