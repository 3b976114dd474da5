/** A string store that never throws: cookies can be blocked, storage disabled (private modes) or full. */
export interface KeyValueStore {
  get(name: string): string | undefined;
  /** `days` bounds a cookie's life; Web Storage keeps values until they are removed. */
  set(name: string, value: string, days: number): void;
  remove(name: string): void;
}

const DAY_SECONDS = 86_400;
/** Chromium refuses cookie lifetimes beyond 400 days. */
export const MAX_COOKIE_DAYS = 400;

function attempt(action: () => void): void {
  try {
    action();
  } catch {
    // The store is unusable here; the next layer (or memory) keeps the value.
  }
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

export function readCookie(cookies: string, name: string): string | undefined {
  for (const pair of cookies.split(';')) {
    const equals = pair.indexOf('=');
    if (equals > 0 && pair.slice(0, equals).trim() === name) {
      const value = decode(pair.slice(equals + 1).trim());
      return value === '' ? undefined : value;
    }
  }
  return undefined;
}

export interface CookieOptions {
  /** e.g. `shop.example` to share the cookies with every subdomain; default: this host only. */
  domain?: string;
  secure: boolean;
  /**
   * Server-set cookies: read and deleted here, never written. Safari caps a cookie written by a script to 7 days,
   * also one the server set and a script wrote again.
   */
  readOnly?: boolean;
}

/** First-party cookies, which the site's own backend also receives with every request. */
export function cookieStore(doc: { cookie: string }, { domain, secure, readOnly = false }: CookieOptions): KeyValueStore {
  const write = (name: string, value: string, seconds: number) => {
    doc.cookie = `${name}=${encodeURIComponent(value)}; Max-Age=${seconds}; Path=/; SameSite=Lax${domain ? `; Domain=${domain}` : ''}${secure ? '; Secure' : ''}`;
  };
  return {
    get(name) {
      try {
        return readCookie(doc.cookie, name);
      } catch {
        return undefined;
      }
    },
    set(name, value, days) {
      // Read-only: a server-set value that is no longer current is deleted, so the next layer's newer value is read.
      if (!readOnly) attempt(() => write(name, value, Math.round(Math.min(days, MAX_COOKIE_DAYS) * DAY_SECONDS)));
      else if (this.get(name) !== undefined && this.get(name) !== value) this.remove(name);
    },
    remove: (name) => attempt(() => write(name, '', 0)),
  };
}

export function memoryStore(): KeyValueStore {
  const values = new Map<string, string>();
  return {
    get: (name) => values.get(name),
    set: (name, value) => void values.set(name, value),
    remove: (name) => void values.delete(name),
  };
}

/** `localStorage`, or memory when it cannot be written (Safari private mode, storage disabled, sandboxed frames). */
export function webStorageStore(open: () => Storage): KeyValueStore {
  let storage: Storage;
  try {
    storage = open();
    storage.setItem('sbx_probe', '1');
    storage.removeItem('sbx_probe');
  } catch {
    return memoryStore();
  }
  return {
    get(name) {
      try {
        return storage.getItem(name) ?? undefined;
      } catch {
        return undefined;
      }
    },
    set: (name, value) => attempt(() => storage.setItem(name, value)),
    remove: (name) => attempt(() => storage.removeItem(name)),
  };
}

/** Reads the first store that has the value, writes to all: a cookie with `localStorage` as its fallback. */
export function layeredStore(stores: readonly KeyValueStore[]): KeyValueStore {
  return {
    get(name) {
      for (const store of stores) {
        const value = store.get(name);
        if (value !== undefined) return value;
      }
      return undefined;
    },
    set: (name, value, days) => stores.forEach((store) => store.set(name, value, days)),
    remove: (name) => stores.forEach((store) => store.remove(name)),
  };
}
