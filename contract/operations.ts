import { z } from 'zod';
import { errorAnswer, errors } from './errors';
import { route, type Answer, type RouteContract } from './route';
import { callbackUnavailable } from './tiktok-answers';
import { PUBLIC } from './security';

const param = (whenMissing: string) => z.string({ error: (issue) => (issue.input === undefined ? whenMissing : 'must be given once') }).min(1, whenMissing);

/** TikTok's redirect after the owner approves; TikTok may add parameters of its own, so unknown ones are ignored. */
export const tiktokCallbackQuery = z.object({
  auth_code: param('is required: TikTok adds it when the owner approves; start again with signalbox tiktok connect <workspace>').optional(),
  /** Reported alongside `auth_code` by some sources (UNVERIFIED, reference §8). */
  code: param('must not be empty').optional(),
  state: param('is required: TikTok echoes the state of the authorization URL; open the URL Signalbox printed'),
});

/** Shopify's redirect once the owner approves the Signalbox app; Shopify may add parameters of its own (`host`), which its `hmac` covers too. */
export const shopifyCallbackQuery = z.object({
  code: param('is required: Shopify adds it when the owner approves; start connecting the shop again'),
  hmac: param("is required: Shopify signs its redirect with it; open the address Shopify's approval page sent you to"),
  shop: param('is required: Shopify names the shop with it'),
  state: param('is required: Shopify echoes the state of the authorization URL; open the URL Signalbox gave you'),
  timestamp: param('must not be empty').optional(),
});

/** The reference page's own files (api/docs.ts serves them from swagger-ui-dist and its initializer). */
export const referenceAssetParams = z.object({ file: z.enum(['swagger-ui.css', 'swagger-ui-bundle.js', 'reference.js']) });

export const readiness = z.strictObject({
  status: z.enum(['ready', 'not_ready']),
  error: z.enum(['schema_behind', 'schema_ahead', 'storage_unavailable']).optional(),
  message: z.string().optional(),
  pendingMigrations: z.array(z.string()).optional().meta({ description: 'The migrations this code needs that the database lacks: run signalbox migrate' }),
  newerMigrations: z
    .array(z.string())
    .optional()
    .meta({ description: "A newer build's migrations that this code cannot serve: send requests to the new build and stop this process" }),
});
export type ReadinessView = z.infer<typeof readiness>;

const html = (description: string) => ({ description, contentType: 'text/html' });
const redirect = (description: string) => ({ description });
/** The same answers, or each as an HTML page of the same status for a browser (Accept: text/html). */
const orPages = (answers: Record<number, Answer>): Record<number, Answer> =>
  Object.fromEntries(Object.entries(answers).map(([status, answer]) => [status, { ...answer, alsoAs: ['text/html'] }]));

export const OPERATION_ROUTES: readonly RouteContract[] = [
  route({
    method: 'GET',
    path: '/healthz',
    summary: 'Liveness: the process answers',
    tag: 'Operations',
    security: PUBLIC,
    storage: false,
    answers: { 200: { description: 'Alive', schema: z.strictObject({ status: z.literal('ok') }) } },
  }),
  route({
    method: 'GET',
    path: '/readyz',
    summary: 'Readiness: PostgreSQL answers, with the schema this code needs',
    tag: 'Operations',
    security: PUBLIC,
    answers: {
      200: { description: 'Ready', schema: readiness, example: { status: 'ready' } },
      503: { description: 'Not ready: the database does not answer, migrations are pending, or a newer build migrated it past this one', schema: readiness, example: { status: 'not_ready', error: 'storage_unavailable', message: 'the database is not answering' } },
    },
  }),
  route({
    method: 'GET',
    path: '/metrics',
    summary: 'Prometheus metrics (counts only, no identifiers)',
    tag: 'Operations',
    security: PUBLIC,
    answers: { 200: { description: 'Prometheus text format', contentType: 'text/plain' } },
  }),
  route({
    method: 'GET',
    path: '/openapi.json',
    summary: 'This document',
    tag: 'Reference',
    security: PUBLIC,
    storage: false,
    answers: { 200: { description: 'The OpenAPI 3.1 document of every route', schema: z.record(z.string(), z.unknown()) } },
  }),
  route({
    method: 'GET',
    path: '/docs',
    summary: 'The interactive API reference',
    tag: 'Reference',
    security: PUBLIC,
    storage: false,
    answers: { 200: html('The reference page (Swagger UI, served by this API)') },
  }),
  route({
    method: 'GET',
    path: '/docs/:file',
    summary: 'The reference page\'s scripts and styles',
    tag: 'Reference',
    security: PUBLIC,
    storage: false,
    params: referenceAssetParams,
    answers: { 200: { description: 'The file', contentType: 'application/javascript', alsoAs: ['text/css'] } },
  }),
  route({
    method: 'GET',
    path: '/oauth/tiktok/callback',
    summary: 'TikTok\'s redirect after the owner approves the connection',
    description:
      'No admin token (the browser has none): the signed, expiring, single-use `state` names the workspace. Answers a page for browsers (Accept: text/html; a redirect to the console when started there), JSON otherwise.',
    tag: 'TikTok',
    security: PUBLIC,
    query: tiktokCallbackQuery,
    answers: {
      ...orPages({
        200: {
          description: 'Connected',
          schema: z.strictObject({ connected: z.literal(true), workspaceId: z.string(), connection: z.record(z.string(), z.unknown()), message: z.string() }),
        },
        ...errors(400, 500, 502),
        503: callbackUnavailable,
      }),
      302: redirect('To the console\'s Sources page, when the connection was started there'),
    },
  }),
  route({
    method: 'GET',
    path: '/oauth/shopify/callback',
    summary: "Shopify's redirect after the owner approves the Signalbox app (Connect Shopify)",
    description:
      "No admin token: Shopify's `hmac` over the other parameters (the app's secret) and the signed, expiring, single-use `state` naming workspace and shop protect it. Answers a page for browsers (Accept: text/html; a redirect to the console when started there), JSON otherwise.",
    tag: 'Shopify',
    security: PUBLIC,
    query: shopifyCallbackQuery,
    answers: {
      ...orPages({
        200: {
          description: 'Connected: the webhooks subscribed and the storefront script installed',
          schema: z.strictObject({ connected: z.literal(true), workspaceId: z.string(), connection: z.record(z.string(), z.unknown()), message: z.string() }),
        },
        ...errors(400, 404, 409, 500),
        502: errorAnswer('Shopify refused a call (shopify_rejected), its words kept'),
        503: errorAnswer('Connect Shopify is not set up on this server (shopify_not_configured), Shopify is unavailable (shopify_unavailable), or PostgreSQL is'),
      }),
      302: redirect("To the console's Sources page, when the connection was started there"),
    },
  }),
  route({ method: 'GET', path: '/console', summary: 'The console (redirect to /console/)', tag: 'Console pages', security: PUBLIC, storage: false, answers: { 302: redirect('To /console/') } }),
  route({ method: 'GET', path: '/favicon.ico', summary: 'The console\'s icon (redirect)', tag: 'Console pages', security: PUBLIC, storage: false, answers: { 302: redirect('To /console/favicon.svg') } }),
  route({
    method: 'GET',
    path: '/console/*',
    summary: 'The console\'s pages and assets',
    description: 'Any path under /console/ that is not an asset is the app\'s own route and gets its index.html.',
    tag: 'Console pages',
    security: PUBLIC,
    storage: false,
    answers: {
      200: { ...html('The console\'s page, or an asset'), alsoAs: ['*/*'] },
      304: { description: 'Not modified' },
      404: { ...errorAnswer('No such asset (a plain-text note), or no such route of the console API (JSON)'), alsoAs: ['text/plain'] },
      503: { description: 'The console is not built (a plain-text note)', contentType: 'text/plain' },
    },
  }),
];
