import type { RouteSpec } from '../http/route.ts';
import { getAccount } from './account.get.ts';
import { docsPages } from './docs.ts';
import { createDocumentRoute } from './documents.create.ts';
import { getDocumentFileRoute } from './documents.file.ts';
import { getDocumentRoute } from './documents.get.ts';
import { listDocumentsRoute } from './documents.list.ts';
import { validateDocument } from './documents.validate.ts';
import { openApiRoute } from './openapi.ts';
import { getTemplate } from './templates.get.ts';
import { listTemplates } from './templates.list.ts';

/** Every route under /api/v1, in the order the OpenAPI document lists them. */
export const API_ROUTES: readonly RouteSpec[] = [
  listTemplates,
  getTemplate,
  openApiRoute(() => API_ROUTES),
  createDocumentRoute,
  validateDocument,
  listDocumentsRoute,
  getDocumentRoute,
  getDocumentFileRoute,
  getAccount,
];

export const ROUTES: readonly RouteSpec[] = [...API_ROUTES, ...docsPages(() => API_ROUTES)];
