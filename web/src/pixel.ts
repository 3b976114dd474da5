import { conversionValue, type ValueRule } from '../../sdk/src/rules/conversion-value.js';
import { deriveEventId, isPurchase, ruleEvents } from '../../sdk/src/rules/event-id.js';
import { shareableProperties } from '../../sdk/src/rules/tiktok-properties.js';

/** `load`: the tag loads TikTok's pixel; `page`: it drives the pixel the page has of its own; `off`: it never touches `ttq`. */
export type PixelMode = 'off' | 'load' | 'page';

/** The browser config's `pixel` (GET /js/v1/config/:key). */
export interface PixelSettings {
  mode: PixelMode;
  /** The workspace's pixel code, under which the server sends to the Events API too. */
  code: string | null;
  /** TikTok's pixel library (`https://analytics.tiktok.com/i18n/pixel/events.js`; the dev stack's fake). */
  libraryUrl: string;
  limitedDataUse: boolean;
}

/** A conversion rule of the workspace that the pixel may see, as the browser config lists it. */
export interface PixelRule extends ValueRule {
  sourceEvent: string;
  tiktokEvent: string;
  alsoSendAs: readonly string[];
}

/** What the tag calls of TikTok's `ttq`. */
export interface Ttq {
  load(code: string, options?: object): void;
  page(): void;
  track(event: string, properties: object, options: { event_id: string }): void;
  identify(keys: Record<string, string>): void;
  holdConsent(): void;
  grantConsent(): void;
  revokeConsent(): void;
}

/** The page around the pixel, injected so that the driver runs (and is tested) without a DOM. */
export interface PixelHost {
  /** `window`, where TikTok's base code keeps `ttq`. */
  global: Record<string, unknown>;
  /** Adds an async script before the page's first one, as TikTok's base code does. */
  addScript(src: string): void;
  schedule(run: () => void, delayMs: number): void;
  now(): number;
  warn(text: string): void;
}

/** A message the tag queued (queue.ts), as far as the pixel reads it; this module imports nothing of the DOM's. */
interface SentMessage {
  type: string;
  messageId: string;
  event?: unknown;
  userId?: unknown;
  properties?: unknown;
  traits?: unknown;
}

type Queue = unknown[] & Record<string, unknown>;

/** The methods TikTok's base code queues until its library has loaded and taken the queue over. */
const TTQ_METHODS = ['page', 'track', 'identify', 'instances', 'debug', 'on', 'off', 'once', 'ready', 'alias', 'group', 'enableCookie', 'disableCookie', 'holdConsent', 'revokeConsent', 'grantConsent'];
const CONSENT_CALLS = { held: 'holdConsent', granted: 'grantConsent', revoked: 'revokeConsent' } as const;
/** The tag's consent (tracker.ts's ConsentState). */
type Consent = keyof typeof CONSENT_CALLS;
/** Calls kept while the page's own pixel has not appeared yet, as many as the tracker keeps while consent is held. */
const MAX_WAITING_CALLS = 100;
const PAGE_PIXEL_POLL_MS = 1_000;

/**
 * A search text the pixel is not given: the server leaves out one with an email address or a valid international
 * phone number (domain/pii.ts, with a phone library too big for this script), so the tag leaves out any with `@` or
 * with `+` before a digit, which covers both.
 */
const mayBePersonal = (text: string) => /@|\+\d/.test(text);

/**
 * TikTok's base code (the pixel snippet of Events Manager) without its closing `ttq.load(code); ttq.page()`: `ttq`
 * is a queue of calls until the library loads and takes it over, and `ttq.load` adds the library's script.
 */
function installBaseCode(host: PixelHost, libraryUrl: string): Ttq {
  const ttq = [] as unknown as Queue;
  const defer = (target: Queue, method: string) => {
    target[method] = (...args: unknown[]) => target.push([method, ...args]);
  };
  const registry = (name: string) => (ttq[name] ??= {}) as Record<string, unknown>;
  ttq.methods = TTQ_METHODS;
  ttq.setAndDefer = defer;
  TTQ_METHODS.forEach((method) => defer(ttq, method));
  ttq.instance = (code: string) => {
    const instance = (registry('_i')[code] ?? []) as Queue;
    TTQ_METHODS.forEach((method) => defer(instance, method));
    return instance;
  };
  ttq.load = (code: string, options?: object) => {
    registry('_i')[code] = Object.assign([], { _u: libraryUrl });
    registry('_t')[code] = host.now();
    registry('_o')[code] = options ?? {};
    host.addScript(`${libraryUrl}?sdkid=${code}&lib=ttq`);
  };
  host.global.TiktokAnalyticsObject = 'ttq';
  host.global.ttq = ttq;
  return ttq as unknown as Ttq;
}

/**
 * What `identify` hands the pixel: plain values, which TikTok hashes (SHA-256) before matching them, as Tealium's
 * TikTok pixel tag guide says (docs.tealium.com/client-side-tags/tiktok-pixel-tag; not found in TikTok's own pages).
 */
function identifyKeys(message: SentMessage): Record<string, string> | undefined {
  const traits = (message.traits ?? {}) as Record<string, unknown>;
  const keys: Record<string, string> = {};
  const add = (key: string, value: unknown) => {
    if (typeof value === 'string' && value.trim() !== '') keys[key] = value.trim();
  };
  add('email', traits.email);
  add('phone_number', traits.phone ?? traits.phone_number);
  add('external_id', message.userId);
  return Object.keys(keys).length > 0 ? keys : undefined;
}

/**
 * Drives TikTok's pixel with what the server sends to the Events API for the same message: each track event a rule
 * maps as the rule's TikTok events, with the server's value, currency, contents and event_id, so that TikTok counts
 * each conversion once (reference/tiktok-api.md §5). It is told the tag's consent (`consent`) and every message the
 * tag queues (`sent`), so it sees only what consent lets the tag send, in the same order.
 */
export function createPixel(settings: PixelSettings | undefined, rules: readonly PixelRule[], host: PixelHost) {
  let mode = settings?.mode ?? 'off';
  if (mode === 'load' && !settings?.code) {
    host.warn('the workspace loads the TikTok pixel but has no pixel chosen: nothing is sent to the pixel');
    mode = 'off';
  }
  let ttq: Ttq | undefined;
  let told: Consent | undefined;
  let begun = false;
  const waiting: ((ttq: Ttq) => void)[] = [];

  /** The pixel is the page's or TikTok's code: what it throws must not stop the tag. */
  function run(task: (ttq: Ttq) => void, pixel: Ttq): void {
    try {
      task(pixel);
    } catch (error) {
      host.warn(`TikTok's pixel failed: ${(error as Error).message}`);
    }
  }

  function call(task: (ttq: Ttq) => void): void {
    if (ttq !== undefined) run(task, ttq);
    else if (waiting.length < MAX_WAITING_CALLS) waiting.push(task);
  }

  function use(found: Ttq): void {
    ttq = found;
    waiting.splice(0).forEach((task) => run(task, found));
  }

  function findPagePixel(): void {
    const found = host.global.ttq as Partial<Ttq> | undefined;
    if (typeof found?.track === 'function') use(found as Ttq);
    else host.schedule(findPagePixel, PAGE_PIXEL_POLL_MS);
  }

  function begin(): void {
    begun = true;
    if (mode === 'page') return findPagePixel();
    if (host.global.ttq !== undefined) {
      host.warn("the page has a TikTok pixel of its own: the tag uses it and loads none (choose the setting that uses the page's pixel)");
      mode = 'page';
      return findPagePixel();
    }
    const { code, libraryUrl, limitedDataUse } = settings as PixelSettings;
    const loading = installBaseCode(host, libraryUrl);
    use(loading);
    // Limited Data Use as Segment's TikTok pixel destination passes it to `ttq.load` (segmentio/action-destinations,
    // tiktok-pixel/src/init-script.ts, its `ldu` setting from PR #1937); TikTok's own page on it was not found. For a
    // pixel the page loads itself we found no call to verify, so in `page` mode the page's own pixel code decides.
    loading.load(code as string, limitedDataUse ? { limited_data_use: true } : undefined);
  }

  return {
    /**
     * The tag's consent, told before the pixel loads: a first `granted` needs no call. The library is not loaded for a
     * visitor who refused, unless they change their mind on the page.
     */
    consent(state: Consent): void {
      if (mode === 'off' || state === told) return;
      if (told !== undefined || state !== 'granted') call((pixel) => pixel[CONSENT_CALLS[state]]());
      told = state;
      if (!begun && (mode === 'page' || state !== 'revoked')) begin();
    },

    /** A message the tag has just queued for Signalbox. */
    sent(message: SentMessage): void {
      if (mode === 'off') return;
      // The page's own pixel snippet reports its page views itself (`ttq.page()` in TikTok's base code): once is enough.
      if (message.type === 'page') return mode === 'load' ? call((pixel) => pixel.page()) : undefined;
      const keys = message.type === 'identify' ? identifyKeys(message) : undefined;
      if (keys !== undefined) return call((pixel) => pixel.identify(keys));
      const rule = message.type === 'track' ? rules.find((candidate) => candidate.sourceEvent === message.event) : undefined;
      if (rule === undefined) return;
      const source = (message.properties ?? {}) as Record<string, unknown>;
      const properties = shareableProperties(source, conversionValue(rule, source), mayBePersonal);
      const eventId = deriveEventId({ messageId: message.messageId, properties: source }, isPurchase(rule.sourceEvent, rule.tiktokEvent));
      for (const { tiktokEvent, eventId: id } of ruleEvents(rule, eventId)) call((pixel) => pixel.track(tiktokEvent, properties, { event_id: id }));
    },
  };
}

export type Pixel = ReturnType<typeof createPixel>;
