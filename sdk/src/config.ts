import { BATCH_PATH, DEFAULT_HOST, MAX_RETRY_HORIZON_MS, MAX_TIMER_MS } from './limits.js';
import { MAX_EVENTS_PER_BATCH } from './rules/index.js';
import type { Transport } from './transport.js';

/** What a call does when `maxQueueSize` events are already waiting. */
export type QueueFullBehavior = 'dropOldest' | 'wait';

/** Options of `new Signalbox(config)`. Only `apiKey` is required. */
export interface SignalboxConfig {
  /** API key created in the workspace settings under API Keys (starts with `dk_`). Required. */
  apiKey: string;
  /** Base URL of the ingest API; batches go to `<host>/v1/batch`. Default: `https://ingest.signalbox.io`. */
  host?: string | undefined;
  /** Print a `[Signalbox]` line for every queued event, request, retry, drop and failure. Default: `false`. */
  debug?: boolean | undefined;
  /** Send once this many events are queued. Default: `20`. */
  flushAt?: number | undefined;
  /** Send queued events at the latest this many milliseconds after the oldest was queued. Default: `10000`. */
  flushInterval?: number | undefined;
  /** Milliseconds before one request is given up (and retried). Default: `10000`. */
  timeout?: number | undefined;
  /** Retries of a batch after its first attempt (network error, timeout, 5xx, 408, 429); `0` sends once. Default: `3`. */
  retryLimit?: number | undefined;
  /**
   * Milliseconds during which a batch is retried, counted from its first attempt; the `retryLimit` retries are spread
   * over it (first after about 1 s). Default: `300000` (5 minutes).
   */
  retryHorizon?: number | undefined;
  /** Events kept waiting to be sent. Default: `1000`. */
  maxQueueSize?: number | undefined;
  /**
   * When `maxQueueSize` events are waiting: `'dropOldest'` drops the oldest (reported); `'wait'` makes the call's
   * promise wait for room, so an import loop that awaits each call slows down instead. Default: `'dropOldest'`.
   */
  onQueueFull?: QueueFullBehavior | undefined;
  /** `false` checks calls but sends nothing, e.g. in tests and development. Default: `true`. */
  enabled?: boolean | undefined;
  /** Receives the debug lines. Default: `console.log`. */
  logger?: ((line: string) => void) | undefined;
  /** Replaces the built-in `http`/`https` transport, e.g. in tests. */
  transport?: Transport | undefined;
}

export interface ResolvedConfig {
  apiKey: string;
  /** Full URL of the batch endpoint. */
  batchUrl: string;
  debug: boolean;
  flushAt: number;
  flushInterval: number;
  timeout: number;
  retryLimit: number;
  retryHorizon: number;
  maxQueueSize: number;
  onQueueFull: QueueFullBehavior;
  enabled: boolean;
  logger: (line: string) => void;
  transport: Transport | undefined;
}

const INTEGER_OPTIONS = {
  flushAt: { fallback: 20, min: 1, max: MAX_EVENTS_PER_BATCH },
  flushInterval: { fallback: 10_000, min: 1, max: MAX_TIMER_MS },
  timeout: { fallback: 10_000, min: 1, max: MAX_TIMER_MS },
  retryLimit: { fallback: 3, min: 0, max: 20 },
  retryHorizon: { fallback: 300_000, min: 0, max: MAX_RETRY_HORIZON_MS },
  maxQueueSize: { fallback: 1_000, min: 1, max: Number.MAX_SAFE_INTEGER },
};
type IntegerOption = keyof typeof INTEGER_OPTIONS;

const KNOWN_OPTIONS = new Set<string>(['apiKey', 'host', 'debug', 'logger', 'transport', 'onQueueFull', 'enabled', ...Object.keys(INTEGER_OPTIONS)]);

function configError(message: string): TypeError {
  return new TypeError(`Signalbox config: ${message}`);
}

function describeValue(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : `${String(value)} (${typeof value})`;
}

function resolveInteger(options: SignalboxConfig, name: IntegerOption): number {
  const { fallback, min, max } = INTEGER_OPTIONS[name];
  const value = options[name];
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw configError(`${name} must be an integer, got ${describeValue(value)}`);
  }
  if (value < min || value > max) {
    throw new RangeError(`Signalbox config: ${name} must be from ${min} to ${max}, got ${value}`);
  }
  return value;
}

function resolveBoolean(options: SignalboxConfig, name: 'debug' | 'enabled', fallback: boolean): boolean {
  const value = options[name];
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw configError(`${name} must be true or false, got ${describeValue(value)}`);
  return value;
}

function resolveBatchUrl(host: unknown): string {
  if (host === undefined) return `${DEFAULT_HOST}${BATCH_PATH}`;
  if (typeof host === 'string') {
    let url: URL | undefined;
    try {
      url = new URL(host);
    } catch {
      url = undefined;
    }
    if (url && (url.protocol === 'http:' || url.protocol === 'https:') && !url.search && !url.hash) {
      return `${host.replace(/\/+$/, '')}${BATCH_PATH}`;
    }
  }
  throw configError(`host must be an http:// or https:// URL without query or fragment, got ${describeValue(host)}`);
}

function resolveApiKey(apiKey: unknown): string {
  if (apiKey === undefined || apiKey === null || apiKey === '') {
    throw configError('apiKey is required: pass the key string, or an object with apiKey (keys start with dk_)');
  }
  if (typeof apiKey !== 'string' || apiKey.trim() !== apiKey || /\s/.test(apiKey)) {
    throw configError(`apiKey must be a string without spaces, got ${typeof apiKey === 'string' ? 'one with spaces' : typeof apiKey}`);
  }
  return apiKey;
}

function resolveQueueFull(value: unknown): QueueFullBehavior {
  if (value === undefined) return 'dropOldest';
  if (value === 'dropOldest' || value === 'wait') return value;
  throw configError(`onQueueFull must be "dropOldest" or "wait", got ${describeValue(value)}`);
}

/** Validates options and applies defaults; the only place defaults live. Throws naming the bad option. */
export function resolveConfig(input: string | SignalboxConfig): ResolvedConfig {
  const keyOnly = typeof input === 'string' || input === undefined || input === null;
  const options = (keyOnly ? { apiKey: input } : input) as SignalboxConfig;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw configError(`expected an API key string or a config object, got ${describeValue(input)}`);
  }
  for (const key of Object.keys(options)) {
    if (!KNOWN_OPTIONS.has(key)) throw configError(`unknown option "${key}"`);
  }
  const { logger = (line: string) => console.log(line), transport } = options;
  if (typeof logger !== 'function') throw configError(`logger must be a function, got ${describeValue(logger)}`);
  if (transport !== undefined && (typeof transport !== 'object' || typeof transport?.send !== 'function')) {
    throw configError('transport must be an object with a send(request) method');
  }
  const resolved: ResolvedConfig = {
    apiKey: resolveApiKey(options.apiKey),
    batchUrl: resolveBatchUrl(options.host),
    debug: resolveBoolean(options, 'debug', false),
    flushAt: resolveInteger(options, 'flushAt'),
    flushInterval: resolveInteger(options, 'flushInterval'),
    timeout: resolveInteger(options, 'timeout'),
    retryLimit: resolveInteger(options, 'retryLimit'),
    retryHorizon: resolveInteger(options, 'retryHorizon'),
    maxQueueSize: resolveInteger(options, 'maxQueueSize'),
    onQueueFull: resolveQueueFull(options.onQueueFull),
    enabled: resolveBoolean(options, 'enabled', true),
    logger,
    transport,
  };
  if (resolved.maxQueueSize < resolved.flushAt) {
    throw new RangeError(
      `Signalbox config: maxQueueSize (${resolved.maxQueueSize}) must be at least flushAt (${resolved.flushAt})`,
    );
  }
  return resolved;
}
