import { uuid } from './ids';
import { parseOptions } from './options';
import { createQueue } from './queue';
import { cookieStore, layeredStore, readCookie, webStorageStore } from './store';
import { createTracker, type Tracker } from './tracker';
import { browserTransport } from './transport';
import { captureClick, loadVisitor } from './visitor';

declare global {
  interface Window {
    signalbox?: unknown;
  }
}

type Api = Pick<Tracker, 'track' | 'identify' | 'page' | 'getAnonymousId'>;

const warn = (text: string) => console.warn(`[Signalbox] ${text}`);

/** The host page never sees an exception from this script. */
function guarded<Args extends unknown[], Result>(run: (...args: Args) => Result, fallback: Result) {
  return (...args: Args): Result => {
    try {
      return run(...args);
    } catch (error) {
      warn(`${(error as Error).message ?? error}`);
      return fallback;
    }
  };
}

function start(): void {
  const script = document.currentScript as HTMLScriptElement | null;
  const data = script?.dataset ?? {};
  const options = parseOptions(
    { key: data.key, host: data.host, attributionDays: data.attributionDays, cookieDomain: data.cookieDomain, autoPage: data.autoPage },
    script?.src ?? '',
  );

  const local = webStorageStore(() => window.localStorage);
  const ids = layeredStore([cookieStore(document, { domain: options.cookieDomain, secure: location.protocol === 'https:' }), local]);
  const visitor = loadVisitor(ids, uuid);
  captureClick(ids, location.search, Date.now(), options.attributionDays);

  const queue = createQueue({
    store: local,
    transport: browserTransport(
      options.endpoint,
      (input, init) => fetch(input, init),
      typeof navigator.sendBeacon === 'function' ? (url, body) => navigator.sendBeacon(url, body) : undefined,
    ),
    envelope: (batch) => JSON.stringify({ batch, sentAt: new Date().toISOString(), writeKey: options.writeKey }),
    isOnline: () => navigator.onLine !== false,
    schedule: (run, delayMs) => void setTimeout(run, delayMs),
    warn,
  });

  const tracker = createTracker({
    queue,
    visitor,
    clicks: ids,
    attributionDays: options.attributionDays,
    warn,
    env: {
      page: () => ({ url: location.href, path: location.pathname, search: location.search, referrer: document.referrer, title: document.title }),
      userAgent: navigator.userAgent,
      locale: navigator.language,
      ttp: () => readCookie(document.cookie, '_ttp'),
      now: Date.now,
      newId: uuid,
    },
  });

  const api: Api = {
    track: guarded(tracker.track, undefined),
    identify: guarded(tracker.identify, undefined),
    page: guarded(tracker.page, undefined),
    getAnonymousId: guarded(tracker.getAnonymousId, ''),
  };
  // Calls made before the script loaded: `window.signalbox = window.signalbox || []; signalbox.push(['track', 'x'])`.
  const early = window.signalbox;
  window.signalbox = api;
  if (Array.isArray(early)) {
    for (const [method, ...args] of early as [keyof Api, ...unknown[]][]) {
      if (typeof api[method] === 'function') (api[method] as (...values: unknown[]) => unknown)(...args);
      else warn(`unknown call ${String(method)}`);
    }
  }
  if (options.autoPage) api.page();

  const flushOnExit = guarded(queue.flushOnExit, undefined);
  addEventListener('pagehide', flushOnExit);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') flushOnExit();
  });
  addEventListener('online', () => void queue.flush());
  // Messages an earlier page could not send.
  void queue.flush();
}

guarded(start, undefined)();
