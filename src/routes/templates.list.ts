import { json } from '../http/respond.ts';
import { defineRoute } from '../http/route.ts';
import { TEMPLATE_LIST_EXAMPLE } from '../openapi/examples.ts';
import { TEMPLATES } from '../templates/registry.ts';
import { templateObject } from '../templates/template.ts';

export const listTemplatesRoute = defineRoute({
  method: 'GET',
  path: '/api/v1/templates',
  access: { kind: 'public' },
  versioned: true,
  doc: {
    operationId: 'listTemplates',
    summary: 'List templates',
    description: 'Returns every API template with its fields schema, rules and a complete example request.',
    tag: 'Templates',
    responses: {
      200: {
        description: 'The templates.',
        schema: { $ref: '#/components/schemas/TemplateList' },
        example: TEMPLATE_LIST_EXAMPLE,
      },
    },
  },
  handle() {
    return json(TEMPLATES.map(templateObject));
  },
});
