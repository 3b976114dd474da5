import { uuid } from './ids';
import { answersOnSiteDomain, parseOptions } from './options';
import { createPixel, type Pixel, type PixelRule, type PixelSettings } from './pixel';
import { createQueue } from './queue';
import { cookieStore, layeredStore, MAX_COOKIE_DAYS, readCookie, webStorageStore } from './store';
import { createTracker, type ConsentState, type Tracker } from './tracker';
import { shopifyCartRoot, writeCartAttributes } from './shopify-cart';
import { browserTransport } from './transport';
import { captureClick, currentClick, forgetVisitor, loadVisitor, SEGMENT_ANONYMOUS_ID_NAME, segmentAnonymousId, type Visitor } from './visitor';

declare global {
  interface Window {
    signalbox?: unknown;
    /** Set by Shopify on its storefronts' theme pages. */
    Shopify?: unknown;
  }
}

/** The visitor's decision, remembered (a strictly necessary cookie) so that a page need not repeat it. */
const CONSENT_NAME = 'sbx_consent';
/** Signalbox's default attribution window, used when the workspace's settings cannot be read. */
const DEFAULT_ATTRIBUTION_DAYS = 30;
const CONFIG_RETRY_MS = 5_000;

type Call = (...args: unknown[]) => unknown;
interface WorkspaceConfig {
  consentRequired: boolean;
  attributionDays: number;
  /** Absent in an answer from a server before the pixel settings: the pixel is off. */
  pixel?: PixelSettings;
  rules?: PixelRule[];
}

const warn = (text: string) => console.warn(`[Signalbox] ${text}`);

/** The host page never sees an exception from this script. */
function guarded<Args extends unknown[], Result>(run: (...args: Args) => Result, fallback?: Result) {
  return (...args: Args): Result => {
    try {
      return run(...args);
    } catch (error) {
      warn(`${(error as Error).message ?? error}`);
      return fallback as Result;
    }
  };
}

function start(): void {
  const script = document.currentScript as HTMLScriptElement | null;
  const data = script?.dataset ?? {};
  // A Shopify script tag (Connect Shopify) has only its URL: the key comes in it as `?key=`.
  const srcKey = script?.src ? (new URL(script.src).searchParams.get('key') ?? undefined) : undefined;
  const options = parseOptions(
    { key: data.key ?? srcKey, host: data.host, attributionDays: data.attributionDays, cookieDomain: data.cookieDomain, autoPage: data.autoPage, serverCookies: data.serverCookies },
    script?.src ?? '',
  );
  const serverCookies = options.serverCookies ?? answersOnSiteDomain(options.endpoint, location.hostname, options.cookieDomain);
  const cookieOptions = { domain: options.cookieDomain, secure: location.protocol === 'https:' };
  const local = webStorageStore(() => window.localStorage);
  const ids = layeredStore([cookieStore(document, { ...cookieOptions, readOnly: serverCookies }), local]);
  const decisions = cookieStore(document, cookieOptions);

  let state: ConsentState = 'held';
  let config: WorkspaceConfig | undefined;
  let pixel: Pixel | undefined;
  let heldByPage = false;
  // Also kept here: a browser that blocks cookies cannot remember the decision for the next page, but this one can.
  let decided: string | undefined;
  let visitor: Visitor | undefined;
  let referrer = document.referrer;
  const attributionDays = () => options.attributionDays ?? config?.attributionDays ?? DEFAULT_ATTRIBUTION_DAYS;
  const readyCallbacks: Call[] = [];
  const cartRoot = shopifyCartRoot(window.Shopify);
  /** A Shopify storefront's cart carries the visitor to the order (shopify-cart.ts); '' removes what it held. */
  const writeCart = (anonymousId: string, ttclid: string | undefined) => {
    if (cartRoot !== undefined) writeCartAttributes(cartRoot, (input, init) => fetch(input, init), anonymousId, ttclid).catch((error: Error) => warn(`the Shopify cart attributes were not written (${error.message})`));
  };

  const queue = createQueue({
    store: local,
    transport: browserTransport(
      options.endpoint,
      (input, init) => fetch(input, init),
      typeof navigator.sendBeacon === 'function' ? (url, body) => navigator.sendBeacon(url, body) : undefined,
      serverCookies,
    ),
    // In the same-site mode the answer sets the anonymous ID and click as server cookies (see api/README.md).
    envelope: (batch) =>
      JSON.stringify({
        batch,
        sentAt: new Date().toISOString(),
        writeKey: options.writeKey,
        ...(serverCookies && visitor
          ? { setCookies: { anonymousId: visitor.anonymousId(), click: currentClick(ids, Date.now(), attributionDays()), domain: options.cookieDomain } }
          : {}),
      }),
    isOnline: () => navigator.onLine !== false,
    schedule: (run, delayMs) => void setTimeout(run, delayMs),
    warn,
  });

  const tracker: Tracker = createTracker({
    queue,
    visitor: () => visitor as Visitor,
    consent: () => state,
    clicks: ids,
    attributionDays,
    warn,
    sent: (message) => pixel?.sent(message),
    env: {
      page: () => ({ url: location.href, path: location.pathname, search: location.search, referrer, title: document.title }),
      userAgent: navigator.userAgent,
      locale: navigator.language,
      ttp: () => readCookie(document.cookie, '_ttp'),
      now: Date.now,
      newId: uuid,
    },
  });

  /** Consent is granted: identifiers are read, made and stored from now on, and the calls kept meanwhile are sent. */
  function proceed(): void {
    visitor ??= loadVisitor(ids, uuid, () => segmentAnonymousId(readCookie(document.cookie, SEGMENT_ANONYMOUS_ID_NAME), local.get(SEGMENT_ANONYMOUS_ID_NAME)));
    const click = captureClick(ids, location.search, Date.now(), attributionDays());
    writeCart(visitor.anonymousId(), click?.id);
    state = 'granted';
    pixel?.consent(state);
    tracker.release();
    void queue.flush();
  }

  /** Once the workspace's settings are known: the remembered decision, else the workspace's requirement, decide. */
  function settle(): void {
    const decision = decided ?? decisions.get(CONSENT_NAME);
    pixel ??= createPixel(config?.pixel, config?.rules ?? [], {
      global: window as unknown as Record<string, unknown>,
      addScript(src) {
        const script = document.createElement('script');
        script.async = true;
        script.src = src;
        document.head.append(script);
      },
      schedule: (run, delayMs) => void setTimeout(guarded(run), delayMs),
      now: Date.now,
      warn,
    });
    if (heldByPage) state = 'held';
    else if (decision === 'revoked') state = 'revoked';
    else if (decision === 'granted' || config?.consentRequired === false) proceed();
    pixel.consent(state);
    readyCallbacks.splice(0).forEach((callback) => guarded(callback)());
  }

  const consent = {
    /** Nothing is stored or sent until `grant()`; calls wait in memory. */
    hold(): void {
      heldByPage = true;
      state = 'held';
      pixel?.consent(state);
    },
    grant(): void {
      heldByPage = false;
      decided = 'granted';
      decisions.set(CONSENT_NAME, decided, MAX_COOKIE_DAYS);
      if (config !== undefined) proceed();
    },
    /** Deletes every identifier this script keeps and everything not yet sent; sends nothing more. */
    revoke(): void {
      decided = 'revoked';
      decisions.set(CONSENT_NAME, decided, MAX_COOKIE_DAYS);
      state = 'revoked';
      pixel?.consent(state);
      tracker.discard();
      queue.clear();
      forgetVisitor(ids);
      visitor = undefined;
      writeCart('', undefined);
    },
  };

  function loadConfig(retry: boolean): void {
    fetch(options.configUrl, { credentials: 'omit' })
      .then((response) => (response.ok ? (response.json() as Promise<WorkspaceConfig>) : Promise.reject(new Error(`HTTP ${response.status}`))))
      .then(
        (loaded) => {
          config = loaded;
          guarded(settle)();
        },
        (error: Error) => {
          warn(`the workspace settings could not be read (${error.message}): nothing is stored or sent until they are, or until consent.grant()`);
          if (retry) setTimeout(() => loadConfig(false), CONFIG_RETRY_MS);
        },
      );
  }

  const api = {
    track: guarded(tracker.track),
    identify: guarded(tracker.identify),
    page: guarded(tracker.page),
    alias: guarded(tracker.alias),
    group: guarded(tracker.group),
    reset: guarded(tracker.reset),
    setAnonymousId: guarded(tracker.setAnonymousId),
    getAnonymousId: guarded(tracker.getAnonymousId, ''),
    /** Runs `callback` once the workspace's settings are known and the script has started. */
    ready: guarded((callback: unknown) => {
      if (typeof callback !== 'function') return warn('ready(callback): callback must be a function');
      if (config !== undefined) setTimeout(guarded(callback as Call), 0);
      else readyCallbacks.push(callback as Call);
    }),
    consent: { hold: guarded(consent.hold), grant: guarded(consent.grant), revoke: guarded(consent.revoke) },
  };

  // Calls made before the script loaded: `window.signalbox = window.signalbox || []; signalbox.push(['track', 'x'])`,
  // `signalbox.push(['consent', 'grant'])`.
  const early = window.signalbox;
  window.signalbox = api;
  if (Array.isArray(early)) {
    for (const [method, ...args] of early as [string, ...unknown[]][]) {
      const call = method === 'consent' ? api.consent[args[0] as keyof typeof consent] : (api as unknown as Record<string, Call>)[method];
      if (typeof call === 'function') (call as Call)(...(method === 'consent' ? [] : args));
      else warn(`unknown call ${String(method)}${method === 'consent' ? ` ${String(args[0])}` : ''}`);
    }
  }
  if (options.autoPage) api.page();
  if (options.historyPages) {
    // Single-page apps: a page view for every pushState or back/forward navigation to another path or query.
    let current = location.href;
    const navigated = guarded(() => {
      if (location.href.split('#')[0] === current.split('#')[0]) return;
      referrer = current;
      current = location.href;
      api.page();
    });
    const push = history.pushState;
    history.pushState = function (...args: Parameters<History['pushState']>) {
      push.apply(this, args);
      navigated();
    };
    addEventListener('popstate', navigated);
  }

  const flushOnExit = guarded(queue.flushOnExit);
  addEventListener('pagehide', flushOnExit);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') flushOnExit();
  });
  addEventListener('online', () => (config === undefined ? loadConfig(false) : void queue.flush()));
  loadConfig(true);
}

guarded(start)();
