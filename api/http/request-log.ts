import type { FastifyReply, FastifyRequest } from 'fastify';
import pino, { type DestinationStream, type LevelWithSilent, type Logger } from 'pino';

/** Query parameters that carry credentials or one-time codes (API keys, tokens, OAuth codes and state, sessions). */
const SECRET_PARAMETER = /^(write_?key|key|api_?key|token|access_?token|refresh_?token|auth_?code|code|state|secret|password|session|sig(nature)?)$/i;
/** Query parameters that may carry a person's email or phone: the console's People lookup and conversion search. */
const PERSONAL_PARAMETER = /^(email|phone|q)$/i;
/** An API key in any place of a URL, e.g. a path segment: `dk_`, `pk_` or `ak_` and 32 base64url characters. */
const API_KEY_SHAPE = /\b[dpa]k_[A-Za-z0-9_-]{16,}/g;
/** A console invitation link's token, in its path (`/console/invitations/<token>`, `/console/api/invitations/<token>/accept`). */
const INVITATION_TOKEN = /(\/invitations\/)[A-Za-z0-9_-]{20,}/g;
const REDACTED = '[redacted]';

function parameterName(pair: string): string {
  const name = pair.split('=', 1)[0] ?? '';
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

const isRedacted = (name: string) => SECRET_PARAMETER.test(name) || PERSONAL_PARAMETER.test(name);

/** The URL with the value of every credential-carrying (or email- or phone-carrying) query parameter, and anything shaped like an API key, replaced. */
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
  return `${path}${query}`.replace(API_KEY_SHAPE, REDACTED).replace(INVITATION_TOKEN, `$1${REDACTED}`);
}

/** Fastify's request log entry without credentials: the URL redacted, no headers. */
function requestLogEntry(request: FastifyRequest) {
  return { method: request.method, url: redactUrl(request.url), host: request.host, remoteAddress: request.ip, remotePort: request.socket.remotePort };
}

/** Wherever else a credential could be logged: fields and headers of logged objects (errors carry them sometimes). */
const SECRET_FIELDS = ['writeKey', 'accessToken', 'access_token', 'secret', 'password', 'adminToken'];
const SECRET_HEADERS = ['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key'];
const REDACT_PATHS = [
  ...SECRET_FIELDS.flatMap((field) => [field, `*.${field}`]),
  ...SECRET_HEADERS.flatMap((header) => [`headers["${header}"]`, `*.headers["${header}"]`]),
];

/** The ingest process's logger (given to Fastify as its `loggerInstance`): requests without credentials. */
export function createRequestLogger(level: LevelWithSilent, destination?: DestinationStream): Logger {
  const options = {
    level,
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    serializers: { req: requestLogEntry, res: (reply: FastifyReply) => ({ statusCode: reply.statusCode }), err: pino.stdSerializers.err },
  };
  return destination === undefined ? pino(options) : pino(options, destination);
}
