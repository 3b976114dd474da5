import { MAX_COOKIE_DAYS, type KeyValueStore } from './store';

/** Cookie (and `localStorage`) names; the site's backend reads `sbx_aid` to pass the same `anonymousId`. */
export const ANONYMOUS_ID_NAME = 'sbx_aid';
export const USER_ID_NAME = 'sbx_uid';
export const CLICK_NAME = 'sbx_ttclid';

const DAY_MS = 86_400_000;

export interface Visitor {
  anonymousId(): string;
  /** Adopts an ID the site already uses (e.g. another analytics library's). */
  setAnonymousId(anonymousId: string): void;
  userId(): string | undefined;
  setUserId(userId: string): void;
  /** Sign-out on a shared device: a new anonymous ID, and neither the user nor the click of the person before. */
  reset(): void;
}

/** Segment's analytics.js keeps its anonymous ID JSON-encoded (`"…"`) in this cookie and in `localStorage`. */
export const SEGMENT_ANONYMOUS_ID_NAME = 'ajs_anonymous_id';

/** Segment's anonymous ID from its cookie or `localStorage`, unwrapped from its JSON quotes. */
export function segmentAnonymousId(...sources: readonly (string | undefined)[]): string | undefined {
  for (const raw of sources) {
    if (raw === undefined) continue;
    let value: unknown = raw;
    try {
      value = JSON.parse(raw);
    } catch {
      // A bare value: taken as it is.
    }
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  return undefined;
}

/**
 * This browser's first-party anonymous ID: kept, else the one another library already gave it (`adopt`), else new.
 * Writing it back on every page restores a cookie that only `localStorage` still had and renews its lifetime.
 */
export function loadVisitor(store: KeyValueStore, newId: () => string, adopt: () => string | undefined = () => undefined): Visitor {
  let anonymousId = store.get(ANONYMOUS_ID_NAME) ?? adopt() ?? newId();
  const keep = (id: string) => {
    anonymousId = id;
    store.set(ANONYMOUS_ID_NAME, id, MAX_COOKIE_DAYS);
  };
  keep(anonymousId);
  return {
    anonymousId: () => anonymousId,
    setAnonymousId: keep,
    userId: () => store.get(USER_ID_NAME),
    setUserId: (userId) => store.set(USER_ID_NAME, userId, MAX_COOKIE_DAYS),
    reset() {
      store.remove(USER_ID_NAME);
      store.remove(CLICK_NAME);
      store.remove(ANONYMOUS_ID_NAME);
      keep(newId());
    },
  };
}

/** Consent revoked: every identifier this script keeps is deleted. */
export function forgetVisitor(store: KeyValueStore): void {
  for (const name of [ANONYMOUS_ID_NAME, USER_ID_NAME, CLICK_NAME]) store.remove(name);
}

/** A TikTok ad click: its `ttclid` and when this browser first landed with it (ms since the epoch). */
export interface Click {
  id: string;
  at: number;
}

function parseClick(text: string | undefined): Click | undefined {
  if (text === undefined) return undefined;
  try {
    const click = JSON.parse(text) as Partial<Click>;
    return typeof click.id === 'string' && click.id !== '' && typeof click.at === 'number' ? { id: click.id, at: click.at } : undefined;
  } catch {
    return undefined;
  }
}

/** The kept click while it is inside the attribution window; an expired one is forgotten. */
export function currentClick(store: KeyValueStore, now: number, windowDays: number): Click | undefined {
  const click = parseClick(store.get(CLICK_NAME));
  if (click !== undefined && now - click.at <= windowDays * DAY_MS) return click;
  if (click !== undefined) store.remove(CLICK_NAME);
  return undefined;
}

/**
 * Keeps the `ttclid` of the landing URL for the attribution window. A reload of the same landing URL keeps the first
 * capture time, so that the window is counted from the click, not from the last visit.
 */
export function captureClick(store: KeyValueStore, search: string, now: number, windowDays: number): Click | undefined {
  const fromUrl = new URLSearchParams(search).get('ttclid')?.trim();
  const kept = currentClick(store, now, windowDays);
  if (!fromUrl || fromUrl === kept?.id) return kept;
  const click = { id: fromUrl, at: now };
  store.set(CLICK_NAME, JSON.stringify(click), windowDays);
  return click;
}
