import { TEMPLATES } from '../templates/registry.ts';
import { DOCUMENT_REQUEST_DESCRIPTION } from './schemas.ts';

/** The body of spec 2.1 (component `DocumentRequest`, one variant per template), with each template's example request. */
export const DOCUMENT_REQUEST_BODY = {
  required: true,
  description: DOCUMENT_REQUEST_DESCRIPTION,
  content: {
    'application/json': {
      schema: { $ref: '#/components/schemas/DocumentRequest' },
      examples: Object.fromEntries(
        TEMPLATES.map((template) => [template.slug, { summary: `${template.name}: the template's own example`, value: template.example }]),
      ),
    },
  },
};
