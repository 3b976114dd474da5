import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';

/** Where `npm run build` puts the console (Vite's outDir), seen from dist/api/console/ or api/console/. */
export const BUILT_CONSOLE_DIR = path.resolve(__dirname, path.basename(path.resolve(__dirname, '../..')) === 'dist' ? '../../console' : '../../dist/console');

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
/** The console's icon (console/public/favicon.svg), which index.html links to. */
const FAVICON_PATH = '/console/favicon.svg';
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

interface StaticFile {
  body: Buffer;
  gzipped: Buffer | null;
  type: string;
  etag: string;
}

function load(file: string): StaticFile {
  const body = readFileSync(file);
  const type = TYPES[path.extname(file)] ?? 'application/octet-stream';
  const compressible = /^(text|application\/(javascript|json)|image\/svg)/.test(type);
  return { body, gzipped: compressible ? gzipSync(body, { level: 9 }) : null, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}

/** Every file of the build, by its URL path under `/console/`, read once at start (a few hundred kilobytes). */
function loadBuild(directory: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const full = path.join(folder, name);
      if (statSync(full).isDirectory()) walk(full);
      else files.set(path.relative(directory, full).split(path.sep).join('/'), load(full));
    }
  };
  walk(directory);
  return files;
}

function send(request: FastifyRequest, reply: FastifyReply, file: StaticFile, headers: Record<string, string>) {
  reply.headers({ ...headers, 'content-type': file.type, etag: file.etag, vary: 'Accept-Encoding' });
  if (request.headers['if-none-match'] === file.etag) return reply.code(304).send();
  if (file.gzipped !== null && /\bgzip\b/.test(request.headers['accept-encoding'] ?? '')) return reply.header('content-encoding', 'gzip').send(file.gzipped);
  return reply.send(file.body);
}

/**
 * `/console/`: the single-page app, served from memory. Assets by their hashed names with a year's caching, the files
 * of console/public by their own names; any other path under `/console/` is the app's own route and gets `index.html`
 * (its router takes over). Without a build, a page says how to make one.
 */
export const consoleAppRoutes: FastifyPluginAsync<{ directory?: string }> = async (app, { directory = BUILT_CONSOLE_DIR }) => {
  app.get('/console', async (_request, reply) => reply.redirect('/console/'));
  // Browsers and tools that ask the site root for its icon get the console's.
  app.get('/favicon.ico', async (_request, reply) => reply.redirect(FAVICON_PATH));
  const built = existsSync(path.join(directory, 'index.html')) ? loadBuild(directory) : undefined;
  app.get('/console/*', async (request, reply) => {
    const relative = (request.params as { '*': string })['*'];
    if (relative.startsWith('api/')) return reply.code(404).send({ error: 'not_found', message: `${request.method} ${request.url.split('?')[0]} is not a route of this API` });
    if (built === undefined) return reply.code(503).type('text/plain; charset=utf-8').send(`The console is not built (${directory} has no index.html): run npm run build.`);
    const asset = relative.startsWith('assets/') ? built.get(relative) : undefined;
    if (asset !== undefined) return send(request, reply, asset, { 'cache-control': IMMUTABLE, 'x-content-type-options': 'nosniff' });
    if (relative.startsWith('assets/')) return reply.code(404).type('text/plain; charset=utf-8').send('no such asset: the console was rebuilt, reload the page');
    // Files of console/public (the icon) keep their names, so they are revalidated rather than cached for a year.
    const unhashed = relative === 'index.html' ? undefined : built.get(relative);
    if (unhashed !== undefined) return send(request, reply, unhashed, { 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' });
    return send(request, reply, built.get('index.html') as StaticFile, PAGE_HEADERS);
  });
};
