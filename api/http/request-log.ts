import type { FastifyReply, FastifyRequest } from 'fastify';
import pino, { type DestinationStream, type LevelWithSilent, type Logger } from 'pino';
import { ALL_ROUTES } from '../../contract';
import { withoutDatabaseValues } from '../../db/database-error-log';
import { isSecretInUrl, LOG_REDACT_PATHS } from '../../domain/secret-names';

/** Query parameters that may carry a person's email or phone: the console's People lookup and conversion search. */
const PERSONAL_PARAMETER = /^(email|phone|q)$/i;
/** An API key in any place of a URL, e.g. a path segment: `dk_`, `pk_` or `ak_` and 32 base64url characters. */
const API_KEY_SHAPE = /\b[dpa]k_[A-Za-z0-9_-]{16,}/g;
const REDACTED = '[redacted]';

/**
 * The console's pages that mailed and shown links open with a one-time token in their path (public-links.ts builds
 * them); the console's router serves them under `/console/*`, so no route contract declares them.
 */
const CONSOLE_TOKEN_PAGES = ['/console/reset-password/:token', '/console/invitations/:token'];

interface TokenPath {
  pattern: RegExp;
  /** Which segments of a matching path (counted after its leading `/`) carry the secret. */
  secretSegments: number[];
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A path template's rule when one of its parameters has a secret's name (`:token`, `:key`). */
function tokenPath(template: string): TokenPath | undefined {
  const segments = template.split('/').slice(1);
  const secretSegments = segments.flatMap((segment, index) => (segment.startsWith(':') && isSecretInUrl(segment.slice(1)) ? [index] : []));
  if (secretSegments.length === 0) return undefined;
  const source = segments.map((segment) => (segment.startsWith(':') ? '[^/?#]+' : escapeRegExp(segment))).join('/');
  // Case-insensitive and open-ended: a misspelt or extended link still carries a live token.
  return { pattern: new RegExp(`^/${source}(?=[/?#]|$)`, 'i'), secretSegments };
}

/** Every path that carries a secret in a segment: each route whose contract names a path parameter as a secret, and the console's token pages. */
const TOKEN_PATHS = [...new Set([...ALL_ROUTES.map((route) => route.path), ...CONSOLE_TOKEN_PAGES])].flatMap((template) => tokenPath(template) ?? []);

function redactPath(path: string): string {
  const segments = path.split('/');
  for (const { pattern, secretSegments } of TOKEN_PATHS) {
    if (pattern.test(path)) for (const index of secretSegments) segments[index + 1] = REDACTED;
  }
  return segments.join('/');
}

function parameterName(pair: string): string {
  const name = pair.split('=', 1)[0] ?? '';
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

const isRedacted = (name: string) => isSecretInUrl(name) || PERSONAL_PARAMETER.test(name);

/**
 * The URL with every secret hidden: the value of each credential-carrying (or email- or phone-carrying) query
 * parameter, each path segment that carries a token, and anything shaped like an API key.
 */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?');
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  const query =
    queryStart === -1
      ? ''
      : `?${url
          .slice(queryStart + 1)
          .split('&')
          .map((pair) => (isRedacted(parameterName(pair).trim()) ? `${pair.split('=', 1)[0]}=${REDACTED}` : pair))
          .join('&')}`;
  return `${redactPath(path)}${query}`.replace(API_KEY_SHAPE, REDACTED);
}

/** Fastify's request log entry without credentials: the URL redacted, no headers. */
function requestLogEntry(request: FastifyRequest) {
  return { method: request.method, url: redactUrl(request.url), host: request.host, remoteAddress: request.ip, remotePort: request.socket.remotePort };
}

/** The ingest process's logger (given to Fastify as its `loggerInstance`): requests without credentials. */
export function createRequestLogger(level: LevelWithSilent, destination?: DestinationStream): Logger {
  const options = {
    level,
    redact: { paths: [...LOG_REDACT_PATHS], censor: REDACTED },
    serializers: { req: requestLogEntry, res: (reply: FastifyReply) => ({ statusCode: reply.statusCode }), err: (error: Error) => withoutDatabaseValues(pino.stdSerializers.err(error), error) },
  };
  return destination === undefined ? pino(options) : pino(options, destination);
}
