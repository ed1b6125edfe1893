import { JSON_BODY_ERRORS } from '../http/body.ts';
import type { BodyDeclaration } from '../http/route.ts';
import { TEMPLATES } from '../templates/registry.ts';
import { DOCUMENT_REQUEST_DESCRIPTION } from './schemas.ts';

/**
 * The body of spec 2.1 (component `DocumentRequest`, one variant per template), with each template's example request,
 * and what reading and checking it can answer with.
 */
export const DOCUMENT_REQUEST_BODY: BodyDeclaration = {
  openApi: {
    required: true,
    description: DOCUMENT_REQUEST_DESCRIPTION,
    content: {
      'application/json': {
        schema: { $ref: '#/components/schemas/DocumentRequest' },
        examples: Object.fromEntries(
          TEMPLATES.map((template) => [
            template.slug,
            { summary: `${template.name}: the template's own example`, value: template.example },
          ]),
        ),
      },
    },
  },
  errors: [...JSON_BODY_ERRORS, 'validation_failed', 'reserved_field', 'template_not_found', 'template_version_unavailable'],
};
