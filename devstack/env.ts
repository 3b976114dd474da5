import { z } from 'zod';

/** What `npm start` reads; every part it would start itself can be replaced by an existing one. */
export const devStackEnvSchema = z.object({
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL').optional(),
  TEMPORAL_ADDRESS: z.string().regex(/^[^\s:]+:\d{1,5}$/, 'must be host:port').optional(),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_CLI_PATH: z.string().min(1).optional(),
  TIKTOK_API_URL: z.url({ error: 'must be an http(s) URL' }).optional(),
  PORT: z.coerce.number().int().min(1).max(65535).default(8080),
  /** Where people reach the stack, for the links it mails and shows; unset, the ingest's own http://127.0.0.1:PORT. */
  PUBLIC_URL: z.url({ error: 'must be an http(s) URL' }).optional(),
  POSTGRES_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
  TEMPORAL_PORT: z.coerce.number().int().min(1).max(65535).default(7233),
  TEMPORAL_UI_PORT: z.coerce.number().int().min(1).max(65535).default(8233),
  FAKE_TIKTOK_PORT: z.coerce.number().int().min(1).max(65535).default(9099),
  /** The fake Shopify (Connect Shopify's OAuth and Admin API) and its shop's storefront, unless SHOPIFY_API_KEY names a real app. */
  FAKE_SHOPIFY_PORT: z.coerce.number().int().min(1).max(65535).default(9097),
  FAKE_STOREFRONT_PORT: z.coerce.number().int().min(1).max(65535).default(9098),
  /** Where mail goes; unset, the dev stack's own outbox (an SMTP sink on MAIL_SINK_PORT). */
  SMTP_URL: z.string().regex(/^smtps?:\/\/[^\s/]+/, 'must be an smtp:// or smtps:// URL').optional(),
  MAIL_SINK_PORT: z.coerce.number().int().min(1).max(65535).default(2525),
  /** The worker's /healthz, /readyz and /metrics. */
  WORKER_HEALTH_PORT: z.coerce.number().int().min(1).max(65535).default(9464),
  /** The services refuse internal webhook addresses by default; on this machine a webhook may be a local chat server. */
  ALERT_WEBHOOK_INTERNAL_ADDRESSES: z.enum(['allow', 'refuse'], { error: 'must be allow or refuse' }).default('allow'),
  SIGNALBOX_DATA_DIR: z.string().min(1).default('.signalbox'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type DevStackEnv = z.infer<typeof devStackEnvSchema>;
