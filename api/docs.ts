import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import { API_INFO, ALL_ROUTES } from '../contract';
import { referenceAssetParams } from '../contract/operations';
import { buildOpenApiDocument } from './http/openapi';
import { parseOrReject } from './http/validation';

let generated: ReturnType<typeof buildOpenApiDocument> | undefined;

/** The document of every route, generated from the contract once per process (the contract does not change while it runs). */
export const openApiDocument = () => (generated ??= buildOpenApiDocument(ALL_ROUTES, API_INFO));

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Signalbox API reference</title>
    <link rel="stylesheet" href="/docs/swagger-ui.css" />
  </head>
  <body>
    <div id="reference"></div>
    <script src="/docs/swagger-ui-bundle.js"></script>
    <script src="/docs/reference.js"></script>
  </body>
</html>
`;

/** Swagger UI's setup, a file of its own so that the page's policy allows no inline script. validatorUrl: null keeps it from calling out. */
const INITIALIZER = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#reference', deepLinking: true, validatorUrl: null, tryItOutEnabled: false });\n`;

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
};

const SWAGGER_UI_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const TYPES = { '.css': 'text/css; charset=utf-8', '.js': 'application/javascript; charset=utf-8' } as const;
const files = new Map<string, Buffer>();

/** Swagger UI's own files, served by this API (the machine running it may have no internet), read once on first use. */
function assetBody(file: string): Buffer {
  if (file === 'reference.js') return Buffer.from(INITIALIZER);
  let body = files.get(file);
  if (body === undefined) {
    body = readFileSync(path.join(SWAGGER_UI_DIR, file));
    files.set(file, body);
  }
  return body;
}

/** `GET /openapi.json` and the interactive reference at `GET /docs`, public like the routes they describe. */
export const docsRoutes: FastifyPluginAsync = async (app) => {
  const document = openApiDocument();
  app.get('/openapi.json', async (_request, reply) => reply.header('cache-control', 'no-cache').send(document));
  app.get('/docs', async (_request, reply) => reply.headers(PAGE_HEADERS).send(PAGE));
  app.get('/docs/:file', async (request, reply) => {
    const { file } = parseOrReject(referenceAssetParams, request.params, 'path');
    return reply.headers({ 'content-type': TYPES[path.extname(file) as keyof typeof TYPES], 'cache-control': 'public, max-age=3600', 'x-content-type-options': 'nosniff' }).send(assetBody(file));
  });
};
