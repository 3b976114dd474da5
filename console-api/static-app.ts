import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';

/** Where `npm run build` puts the console (Vite's outDir), seen from dist/console-api/ or console-api/. */
export const BUILT_CONSOLE_DIR = path.resolve(__dirname, path.basename(path.dirname(__dirname)) === 'dist' ? '../console' : '../dist/console');

/** Hashed file names change with their content, so they are cached for a year; the page itself is always revalidated. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const PAGE_HEADERS = {
  'cache-control': 'no-cache',
  'content-security-policy': "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  // Invitation links carry their token in the URL: never hand it to another site.
  'referrer-policy': 'no-referrer',
};

/**
 * `/console/`: the single-page app. Assets by their hashed names; any other path under `/console/` is the app's own
 * route and gets `index.html` (its router takes over). Without a build, a page says how to make one.
 */
export const consoleAppRoutes: FastifyPluginAsync<{ directory?: string }> = async (app, { directory = BUILT_CONSOLE_DIR }) => {
  app.get('/console', async (_request, reply) => reply.redirect('/console/'));
  if (!existsSync(path.join(directory, 'index.html'))) {
    app.get('/console/*', async (_request, reply) =>
      reply.code(503).type('text/plain; charset=utf-8').send(`The console is not built (${directory} has no index.html): run npm run build.`),
    );
    return;
  }
  await app.register(fastifyStatic, {
    root: directory,
    prefix: '/console/',
    wildcard: false,
    index: false,
    setHeaders: (response, file) => {
      if (file.includes(`${path.sep}assets${path.sep}`)) response.header('cache-control', IMMUTABLE);
      else for (const [name, value] of Object.entries(PAGE_HEADERS)) response.header(name, value);
    },
  });
  app.get('/console/*', async (request, reply) => {
    if (request.url.startsWith('/console/api/')) {
      return reply.code(404).send({ error: 'not_found', message: `${request.method} ${request.url.split('?')[0]} is not a route of this API` });
    }
    return reply.headers(PAGE_HEADERS).sendFile('index.html');
  });
};
