import { HEADERS } from '../contract/headers.ts';
import { contentDisposition } from '../http/content-disposition.ts';
import { definePage } from '../http/route.ts';
import { FAVICON_ICO, FAVICON_SVG } from '../pages/favicon.ts';
import { homeView, notFoundPage, SAMPLES_PATH } from '../pages/home-view.ts';
import { PAGE_PATHS, pageResponse } from '../pages/layout.ts';
import { withPageSecurityHeaders } from '../pages/security.ts';
import { findTemplate, TEMPLATES } from '../templates/registry.ts';

/** A day: the samples' and the icon's bytes change only with a new template version or a new release. */
const STATIC_CACHE = 'public, max-age=86400';

export const getHomeRoute = definePage({
  path: PAGE_PATHS.home,
  operationId: 'getHome',
  summary: 'The front door: what the service makes, its samples and plans, and where to start',
  handle: ({ deps, baseUrl }) =>
    withPageSecurityHeaders(
      pageResponse({
        title: 'Invoices, quotes and receipts as PDF',
        body: homeView({ templates: TEMPLATES, signUpOpen: deps.config.signUpEnabled, baseUrl }),
      }),
      baseUrl,
    ),
});

/**
 * A template's example as a watermarked preview: rendered once per process (TemplateSamples) and the same bytes
 * every time, so it carries an ETag and may be cached; it is counted in no limit and charged to no one.
 */
export const getSampleRoute = definePage({
  path: `${SAMPLES_PATH}/{slug}`,
  operationId: 'getSample',
  summary: "A template's example as a preview PDF",
  async handle({ params, samples, request, baseUrl }) {
    const template = findTemplate(params.slug ?? '');
    if (!template) return notFoundPage(baseUrl);
    const sample = await samples.of(template);
    const etag = `"${sample.sha256}"`;
    const headers = {
      [HEADERS.cacheControl]: STATIC_CACHE,
      [HEADERS.etag]: etag,
      [HEADERS.contentTypeOptions]: 'nosniff',
      [HEADERS.frameOptions]: 'DENY',
    };
    if (request.headers.get(HEADERS.ifNoneMatch) === etag) return new Response(null, { status: 304, headers });
    return new Response(sample.bytes, {
      headers: {
        ...headers,
        [HEADERS.contentType]: 'application/pdf',
        [HEADERS.contentDisposition]: contentDisposition(sample.filename, 'inline'),
        [HEADERS.documentSha256]: sample.sha256,
      },
    });
  },
});

export const getDocsRoute = definePage({
  path: '/docs',
  operationId: 'getDocs',
  summary: 'The documentation: leads to the API reference',
  handle: () => new Response(null, { status: 301, headers: { [HEADERS.location]: PAGE_PATHS.apiReference } }),
});

export const getFaviconIcoRoute = definePage({
  path: '/favicon.ico',
  operationId: 'getFaviconIco',
  summary: "The service's icon (ICO)",
  handle: () => new Response(FAVICON_ICO, { headers: { [HEADERS.contentType]: 'image/x-icon', [HEADERS.cacheControl]: STATIC_CACHE } }),
});

export const getFaviconSvgRoute = definePage({
  path: PAGE_PATHS.icon,
  operationId: 'getFaviconSvg',
  summary: "The service's icon (SVG)",
  handle: () =>
    new Response(FAVICON_SVG, {
      headers: {
        [HEADERS.contentType]: 'image/svg+xml',
        [HEADERS.cacheControl]: STATIC_CACHE,
        [HEADERS.contentSecurityPolicy]: "default-src 'none'; style-src 'unsafe-inline'",
      },
    }),
});
