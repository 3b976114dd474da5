import { isIP } from 'node:net';
import { z } from 'zod';

/** Thrown when the environment is missing or malformed; the message names every bad variable. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

const postgresUrl = z
  .string({ error: 'is required (e.g. postgres://user@127.0.0.1:5432/signalbox)' })
  .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL');
const hostPort = z.string().regex(/^[^\s:]+:\d{1,5}$/, 'must be host:port, e.g. 127.0.0.1:7233');
const logLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info');
export const secretKeySchema = z
  .string({ error: 'is required: 32 random bytes as 64 hex characters (openssl rand -hex 32)' })
  .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters (openssl rand -hex 32)');

/**
 * SECRET_KEY seals and opens the columns of db/sealed-columns.ts; SECRET_KEY_PREVIOUS, during a rotation, only opens
 * (the key being retired), so that services read what `signalbox secrets rotate` has not re-sealed yet.
 */
const secretKeys = {
  SECRET_KEY: secretKeySchema,
  SECRET_KEY_PREVIOUS: secretKeySchema.optional(),
};

/** SECRET_KEY_PREVIOUS is the key being retired: the same key twice is a mistake in the rotation's order. */
function distinctSecretKeys(env: { SECRET_KEY: string; SECRET_KEY_PREVIOUS?: string | undefined }, context: z.RefinementCtx): void {
  if (env.SECRET_KEY_PREVIOUS?.toLowerCase() === env.SECRET_KEY.toLowerCase()) {
    context.addIssue({ code: 'custom', path: ['SECRET_KEY_PREVIOUS'], message: 'is SECRET_KEY itself: it must be the key being retired' });
  }
}

/** OAuth of the TikTok Marketing API app (all optional: without them only a manually entered token can connect). */
const tiktokOAuth = {
  TIKTOK_APP_ID: z.string().regex(/^\d+$/, 'must be the developer app ID: digits only').optional(),
  TIKTOK_APP_SECRET: z.string().min(1, 'must not be empty').optional(),
  /** Where TikTok sends the owner back with `auth_code` and `state` (one of the app's registered redirect URLs). */
  TIKTOK_OAUTH_REDIRECT_URI: z.url({ error: 'must be an http(s) URL registered as the app redirect URL' }).optional(),
  /** TikTok's advertiser authorization page; the dev stack points it at the fake's `/portal/auth`. */
  TIKTOK_AUTH_URL: z.url({ error: 'must be an http(s) URL' }).default('https://business-api.tiktok.com/portal/auth'),
};

/**
 * Which proxies in front of the ingest API to believe about the client's address (`X-Forwarded-For`): `true` (all),
 * a number of hops, or addresses and CIDR ranges separated by commas. Default: none, the TCP peer is the client.
 */
const trustProxy = z
  .string()
  .default('false')
  .transform((value, context) => {
    const text = value.trim();
    if (text === 'true' || text === 'false') return text === 'true';
    if (/^\d+$/.test(text)) return Number(text);
    const entries = text.split(',').map((entry) => entry.trim());
    const bad = entries.find((entry) => isIP(entry.split('/')[0] ?? '') === 0);
    if (bad !== undefined) {
      context.addIssue({ code: 'custom', message: `must be true, false, a hop count, or IP addresses and CIDR ranges separated by commas; "${bad}" is none of these` });
      return z.NEVER;
    }
    return entries;
  });

/**
 * The Signalbox Shopify app, for Connect Shopify (all optional: without the key and secret only the pasted-webhook
 * Shopify source works). SHOPIFY_SHOP_URL is where a shop's admin is reached, `{shop}` standing for its myshopify.com
 * domain: Shopify's own address unless the dev stack or a test points it at the fake Shopify.
 */
const shopifyApp = {
  SHOPIFY_API_KEY: z.string().regex(/^\S+$/, "must be the app's client ID, without spaces").optional(),
  SHOPIFY_API_SECRET: z.string().regex(/^\S+$/, "must be the app's client secret, without spaces").optional(),
  SHOPIFY_SHOP_URL: z
    .string()
    .refine((value) => value.includes('{shop}') && URL.canParse(value.replace('{shop}', 'fern-shop.myshopify.com')) && /^https?:\/\//.test(value), {
      error: 'must be an http(s) URL with {shop} where the shop\'s myshopify.com domain goes, e.g. https://{shop}',
    })
    .default('https://{shop}'),
};

const tiktokApiUrl = z.url({ error: 'must be an http(s) URL' }).default('https://business-api.tiktok.com');

/** TikTok's pixel library, which the tracking tag loads when a workspace asks it to load the pixel. */
export const DEFAULT_TIKTOK_PIXEL_URL = 'https://analytics.tiktok.com/i18n/pixel/events.js';
const tiktokPixelUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http(s) URL of TikTok\'s pixel library, e.g. https://analytics.tiktok.com/i18n/pixel/events.js' })
  .default(DEFAULT_TIKTOK_PIXEL_URL);

/** Temporal duration of the statistics schedule, e.g. `1 hour`, `30 minutes`. */
const statsPullInterval = z
  .string()
  .regex(/^\d+\s*(seconds?|minutes?|hours?|days?|s|m|h|d)$/, 'must be a duration such as "1 hour" or "30 minutes"')
  .default('1 hour');

/** A whole number of milliseconds between `min` and 10 minutes. */
function milliseconds(fallback: number, min = 1) {
  const rule = `must be a whole number of milliseconds from ${min} to 600000`;
  return z.coerce.number({ error: rule }).int(rule).min(min, rule).max(600_000, rule).default(fallback);
}

/**
 * PostgreSQL deadlines: each wait on the database ends. An ingest request answers by INGEST_STORAGE_DEADLINE_MS
 * whatever they are; a transaction it gave up on still ends within them.
 */
const databaseTimeouts = {
  /** Opening a connection, TCP and startup included. */
  DATABASE_CONNECT_TIMEOUT_MS: milliseconds(3_000),
  /** Waiting for a pooled connection (opening one included). */
  DATABASE_ACQUIRE_TIMEOUT_MS: milliseconds(3_000),
  /** The server's `statement_timeout`; the client gives up 1 s later on a server that stopped answering. */
  DATABASE_STATEMENT_TIMEOUT_MS: milliseconds(5_000),
  /** The server's `idle_in_transaction_session_timeout`: a transaction left open this long is ended by PostgreSQL. */
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: milliseconds(10_000),
};

/** The deadlines alone, for code that opens the database as the services do (tests). */
export const databaseTimeoutEnvSchema = z.object(databaseTimeouts);

const poolMaxRule = 'must be a whole number of connections from 1 to 1000';
/** Connections each process may hold; every process's pool counts against PostgreSQL's `max_connections`. */
const databasePoolMax = z.coerce.number({ error: poolMaxRule }).int(poolMaxRule).min(1, poolMaxRule).max(1000, poolMaxRule).default(10);

const temporal = {
  TEMPORAL_ADDRESS: hostPort.default('127.0.0.1:7233'),
  /** On Temporal Cloud `<namespace>.<account-id>`. */
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('signalbox'),
  TEMPORAL_API_KEY: z.string().min(1, 'must not be empty').optional(),
  /** The CA that signed the server's certificate, when the system's CAs do not know it (a self-hosted cluster). */
  TEMPORAL_TLS_CA_PATH: z.string().min(1, 'must not be empty').optional(),
  /** The name the server's certificate is checked against, when it differs from TEMPORAL_ADDRESS's host. */
  TEMPORAL_TLS_SERVER_NAME: z
    .string()
    .regex(/^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$/, 'must be a DNS name, e.g. temporal.internal')
    .optional(),
  TEMPORAL_TLS_CERT_PATH: z.string().min(1, 'must not be empty').optional(),
  TEMPORAL_TLS_KEY_PATH: z.string().min(1, 'must not be empty').optional(),
};

/**
 * Whether alert webhooks may be on internal addresses (notify/webhook-target.ts): refused by default, checked by the
 * API when a URL is saved and by the worker when it connects; the dev stack allows them.
 */
const alertWebhookInternalAddresses = z.enum(['allow', 'refuse'], { error: 'must be allow or refuse' }).default('refuse');

/**
 * Outgoing mail (alerts, password resets). Without SMTP_URL nothing is sent: alerts by email and reset links are
 * recorded as failed with the reason. The dev stack points it at its local outbox.
 */
const mail = {
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^\s/]+/, 'must be an smtp:// or smtps:// URL, e.g. smtp://user:password@mail.example:587')
    .optional(),
  MAIL_FROM: z
    .string()
    .regex(/^([^<>]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/, 'must be an address, e.g. alerts@shop.example or "Signalbox <alerts@shop.example>"')
    .default('Signalbox <signalbox@localhost>'),
};

const PUBLIC_URL_RULE = 'must be the https:// address people reach this API at, without a path, e.g. https://signalbox.shop.example (http:// only for 127.0.0.1 or localhost)';
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Where people and TikTok reach the API. Every link Signalbox mails or shows (password resets, invitations, the
 * tracking tag, the OAuth callback) is built from it, never from a request's `Host`, which the sender controls.
 */
const publicUrl = z.string({ error: 'is required: the https:// address people reach this API at, e.g. https://signalbox.shop.example (links in mails and pages are built from it)' }).transform((value, context) => {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  const secure = url?.protocol === 'https:' || (url?.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
  if (url === undefined || !secure || url.username !== '' || url.password !== '' || url.pathname !== '/' || url.search !== '' || url.hash !== '') {
    context.addIssue({ code: 'custom', message: PUBLIC_URL_RULE });
    return z.NEVER;
  }
  return url.origin;
});

const PORT_RULE = 'must be a port number from 1 to 65535';
const listenPort = z.coerce.number({ error: PORT_RULE }).int(PORT_RULE).min(1, PORT_RULE).max(65535, PORT_RULE);

/** `/readyz` answers "not ready" when PostgreSQL has not answered on a connection of its own within this time. */
const readinessTimeout = milliseconds(2_000);

export const ingestEnvSchema = z.object({
  DATABASE_URL: postgresUrl,
  DATABASE_POOL_MAX: databasePoolMax,
  ...databaseTimeouts,
  /**
   * One deadline for an ingest request's storage work (API key lookup, waiting for a connection, the commit): past it
   * the request is answered 503 with Retry-After, well inside the client library's 10 s request timeout.
   */
  INGEST_STORAGE_DEADLINE_MS: milliseconds(5_000),
  READINESS_TIMEOUT_MS: readinessTimeout,
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  PUBLIC_URL: publicUrl,
  TRUST_PROXY: trustProxy,
  ADMIN_TOKEN: z
    .string({ error: 'is required: the operator token for /admin (at least 24 characters)' })
    .min(24, 'must be at least 24 characters'),
  ...secretKeys,
  LOG_LEVEL: logLevel,
  /** Temporal Web UI base (dev: http://127.0.0.1:8233); when set, a conversion's detail links to its workflow. */
  TEMPORAL_UI_URL: z.url({ error: 'must be an http(s) URL, e.g. http://127.0.0.1:8233' }).optional(),
  TIKTOK_API_URL: tiktokApiUrl,
  /** TikTok's pixel library as the browser config gives it to the tag; the dev stack points it at the fake's stand-in. */
  TIKTOK_PIXEL_URL: tiktokPixelUrl,
  ...tiktokOAuth,
  ...shopifyApp,
  TIKTOK_STATS_PULL_INTERVAL: statsPullInterval,
  ALERT_WEBHOOK_INTERNAL_ADDRESSES: alertWebhookInternalAddresses,
  ...mail,
  ...temporal,
}).superRefine(distinctSecretKeys);

export const workerEnvSchema = z.object({
  DATABASE_URL: postgresUrl,
  DATABASE_POOL_MAX: databasePoolMax,
  ...databaseTimeouts,
  TIKTOK_API_URL: tiktokApiUrl,
  TIKTOK_STATS_PULL_INTERVAL: statsPullInterval,
  ...secretKeys,
  LOG_LEVEL: logLevel,
  /** The worker's `/healthz`, `/readyz` and `/metrics`; unset, it serves none. */
  WORKER_HEALTH_PORT: listenPort.optional(),
  WORKER_HEALTH_HOST: z.string().min(1, 'must not be empty').default('0.0.0.0'),
  READINESS_TIMEOUT_MS: readinessTimeout,
  /**
   * From SIGTERM to the process's exit, at most: the group in hand finishes its TikTok request (10 s timeout) and
   * gives back the rest; whatever still runs at the bound is left for another worker to take over.
   */
  WORKER_SHUTDOWN_GRACE_MS: milliseconds(15_000, 1_000),
  /** Where people reach the console: the links in alerts (the Alerts page, the failed conversions) are built from it. */
  PUBLIC_URL: publicUrl,
  ...mail,
  ALERT_WEBHOOK_INTERNAL_ADDRESSES: alertWebhookInternalAddresses,
  ...temporal,
}).superRefine(distinctSecretKeys);

/** `signalbox migrate`: the database alone, as a release step runs it. */
export const migrateEnvSchema = z.object({ DATABASE_URL: postgresUrl });

/** `signalbox temporal setup`: search attributes and schedules, and the database for the statistics schedules. */
export const temporalSetupEnvSchema = z.object({
  DATABASE_URL: postgresUrl,
  TIKTOK_STATS_PULL_INTERVAL: statsPullInterval,
  ...temporal,
});

/** `signalbox retention run`: Temporal alone (the worker runs retention; the command triggers its schedule). */
export const retentionRunEnvSchema = z.object(temporal);

/** `signalbox secrets rotate`: the services' keys, SECRET_KEY the one in use, SECRET_KEY_PREVIOUS the one being retired. */
export const secretRotationEnvSchema = z
  .object({
    DATABASE_URL: postgresUrl,
    SECRET_KEY: secretKeySchema,
    SECRET_KEY_PREVIOUS: z.string({ error: 'is required: the key being retired, with SECRET_KEY set to the new one' }).pipe(secretKeySchema),
  })
  .superRefine(distinctSecretKeys);

export type IngestEnv = z.infer<typeof ingestEnvSchema>;
export type DatabaseTimeoutEnv = { [K in keyof typeof databaseTimeouts]: number };
export type WorkerEnv = z.infer<typeof workerEnvSchema>;

/** The variables set to nothing (`SECRET_KEY_PREVIOUS=`, as templates leave them) or to blanks only. */
const emptyNames = (source: NodeJS.ProcessEnv) => new Set(Object.keys(source).filter((name) => source[name]?.trim() === ''));

/**
 * Parses `source` (default `process.env`) once at a composition root; throws ConfigError naming each bad variable.
 * An empty variable counts as unset: an optional one is off, one with a default gets the default, and a required one
 * is refused as missing, saying it is empty.
 */
export function loadEnv<S extends z.ZodTypeAny>(schema: S, source: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const empty = emptyNames(source);
  const result = schema.safeParse(Object.fromEntries(Object.entries(source).filter(([name]) => !empty.has(name))));
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const name = issue.path.join('.');
    return empty.has(name) ? `${name} is empty, which counts as unset, and ${issue.message.replace(/^is required/, 'it is required')}` : `${name} ${issue.message}`;
  });
  throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
}
