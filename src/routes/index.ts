import type { RouteSpec } from '../http/route.ts';
import { getAccountRoute } from './account.get.ts';
import { getApiPageRoute } from './docs.api.ts';
import { getErrorsPageRoute } from './docs.errors.ts';
import { createDocumentRoute } from './documents.create.ts';
import { getDocumentFileRoute } from './documents.file.ts';
import { getDocumentRoute } from './documents.get.ts';
import { listDocumentsRoute } from './documents.list.ts';
import { validateDocumentRoute } from './documents.validate.ts';
import { getHealthRoute, headHealthRoute } from './health.ts';
import { getDocsRoute, getFaviconIcoRoute, getFaviconSvgRoute, getHomeRoute, getSampleRoute } from './home.ts';
import { getOpenApiRoute } from './openapi.ts';
import { runOperatorCommandRoute } from './operator.commands.ts';
import {
  settingsAccountRoute,
  settingsChangeEmailRoute,
  settingsDeleteAccountPageRoute,
  settingsDeleteAccountRoute,
  settingsEmailChangeLinkPageRoute,
  settingsEmailChangeLinkRoute,
} from './settings.account.ts';
import { settingsScriptRoute, settingsStylesheetRoute } from './settings.assets.ts';
import {
  settingsDocumentFormPostRoute,
  settingsDocumentFormRoute,
  settingsNewDocumentRoute,
  settingsPasteDocumentRoute,
} from './settings.documents.ts';
import {
  settingsConfirmRegenerateKeyRoute,
  settingsConfirmRevokeKeyRoute,
  settingsCreateKeyRoute,
  settingsKeysRoute,
  settingsRegenerateKeyRoute,
  settingsRevokeKeyRoute,
} from './settings.keys.ts';
import { settingsOverviewRoute } from './settings.overview.ts';
import {
  settingsSignInLinkPageRoute,
  settingsSignInLinkRoute,
  settingsSignInPageRoute,
  settingsSignInRoute,
  settingsSignUpPageRoute,
  settingsSignUpRoute,
} from './settings.sign-in.ts';
import { settingsSignOutEverywhereRoute, settingsSignOutRoute } from './settings.sign-out.ts';
import { settingsUsageRoute } from './settings.usage.ts';
import { getTemplateRoute } from './templates.get.ts';
import { listTemplatesRoute } from './templates.list.ts';

/**
 * Every route under /api/v1, in the order the OpenAPI document lists them. Each route module exports its route
 * as its operationId followed by `Route`.
 */
export const API_ROUTES: readonly RouteSpec[] = [
  listTemplatesRoute,
  getTemplateRoute,
  getOpenApiRoute(() => API_ROUTES),
  createDocumentRoute,
  validateDocumentRoute,
  listDocumentsRoute,
  getDocumentRoute,
  getDocumentFileRoute,
  getAccountRoute,
];

/** Settings: server-rendered pages for account holders (src/pages), outside the OpenAPI document. */
const SETTINGS_ROUTES: readonly RouteSpec[] = [
  settingsOverviewRoute,
  settingsNewDocumentRoute,
  settingsPasteDocumentRoute,
  settingsDocumentFormRoute,
  settingsDocumentFormPostRoute,
  settingsSignUpPageRoute,
  settingsSignUpRoute,
  settingsSignInPageRoute,
  settingsSignInRoute,
  settingsSignInLinkPageRoute,
  settingsSignInLinkRoute,
  settingsKeysRoute,
  settingsCreateKeyRoute,
  settingsConfirmRevokeKeyRoute,
  settingsRevokeKeyRoute,
  settingsConfirmRegenerateKeyRoute,
  settingsRegenerateKeyRoute,
  settingsUsageRoute,
  settingsAccountRoute,
  settingsChangeEmailRoute,
  settingsEmailChangeLinkPageRoute,
  settingsEmailChangeLinkRoute,
  settingsDeleteAccountPageRoute,
  settingsDeleteAccountRoute,
  settingsSignOutRoute,
  settingsSignOutEverywhereRoute,
  settingsStylesheetRoute,
  settingsScriptRoute,
];

/**
 * Every route the handler serves: the API, its documentation pages, Settings, the operator API and the health
 * check (the last two in no public document).
 */
export const ROUTES: readonly RouteSpec[] = [
  ...API_ROUTES,
  getHomeRoute,
  getSampleRoute,
  getDocsRoute,
  getFaviconIcoRoute,
  getFaviconSvgRoute,
  getErrorsPageRoute,
  getApiPageRoute(() => API_ROUTES),
  ...SETTINGS_ROUTES,
  runOperatorCommandRoute,
  getHealthRoute,
  headHealthRoute,
];
