import type { Message, Queue } from './queue';
import type { KeyValueStore } from './store';
import { currentClick, type Visitor } from './visitor';

export const LIBRARY = { name: 'signalbox.js', version: '1.1.0' } as const;

type Properties = Record<string, unknown>;

/** What Segment's browser library records about a page, as `context.page` and as a page call's properties. */
export interface PageInfo {
  url: string;
  path: string;
  search: string;
  referrer: string;
  title: string;
}

/** The browser around the tracker, injected so that the tracker runs (and is tested) without a DOM. */
export interface Environment {
  page(): PageInfo;
  userAgent: string;
  locale?: string;
  /** The `_ttp` cookie of TikTok's pixel, read at every event because the pixel may set it after this script ran. */
  ttp(): string | undefined;
  now(): number;
  newId(): string;
}

/** `held`: calls wait in memory (nothing stored or sent); `revoked`: calls are dropped. */
export type ConsentState = 'granted' | 'held' | 'revoked';

export interface TrackerOptions {
  queue: Pick<Queue, 'push'>;
  /** This browser's identifiers; only asked for while consent is granted. */
  visitor(): Visitor;
  consent(): ConsentState;
  /** Where the click was kept (see `captureClick`). */
  clicks: KeyValueStore;
  attributionDays(): number;
  env: Environment;
  warn(text: string): void;
  /** Told each message once it is queued, that is only with consent (TikTok's pixel follows the tag this way). */
  sent?(message: Message): void;
}

/** Calls kept while consent is held; a page that never decides does not grow without bound. */
const MAX_HELD_CALLS = 100;

function properties(value: unknown): Properties {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Properties) : {};
}

function identifier(value: unknown): string | undefined {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  return text === '' ? undefined : text;
}

/**
 * The public calls. Every message carries the anonymous ID, the known user ID, the kept `ttclid` and `_ttp`. While
 * consent is held, calls wait in memory with their time and page, and run once it is granted.
 */
export function createTracker({ queue, visitor, consent, clicks, attributionDays, env, warn, sent }: TrackerOptions) {
  let held: (() => void)[] = [];

  function whenAllowed(run: (at: number, page: PageInfo) => void): void {
    const state = consent();
    if (state === 'revoked') return;
    const at = env.now();
    const page = env.page();
    if (state === 'granted') return run(at, page);
    if (held.length < MAX_HELD_CALLS) held.push(() => run(at, page));
  }

  function send(type: string, fields: Properties, at: number, page: PageInfo): void {
    const click = currentClick(clicks, at, attributionDays());
    const ttp = env.ttp();
    const userId = visitor().userId();
    const message: Message = {
      type,
      messageId: env.newId(),
      timestamp: new Date(at).toISOString(),
      anonymousId: visitor().anonymousId(),
      ...(userId === undefined ? {} : { userId }),
      context: {
        library: LIBRARY,
        page,
        userAgent: env.userAgent,
        locale: env.locale,
        ...(click === undefined ? {} : { ttclid: click.id }),
        ...(ttp === undefined ? {} : { ttp }),
      },
      ...fields,
    };
    queue.push(message);
    sent?.(message);
  }

  return {
    track(event: unknown, props?: unknown): void {
      if (typeof event !== 'string' || event.trim() === '') return warn('track(event, properties): event must be a non-empty string');
      whenAllowed((at, page) => send('track', { event: event.trim(), properties: properties(props) }, at, page));
    },

    /** `identify(userId, traits?)` remembers the user for later events; `identify(traits)` adds traits only. */
    identify(userIdOrTraits?: unknown, traits?: unknown): void {
      if (typeof userIdOrTraits === 'object' && userIdOrTraits !== null) {
        return whenAllowed((at, page) => send('identify', { traits: properties(userIdOrTraits) }, at, page));
      }
      const userId = identifier(userIdOrTraits);
      if (userId === undefined) return warn('identify(userId, traits): userId must be a non-empty string');
      whenAllowed((at, page) => {
        visitor().setUserId(userId);
        send('identify', { traits: properties(traits) }, at, page);
      });
    },

    /** `page()`, `page(name)`, `page(name, properties)` or `page(properties)`; the page's URL, path and referrer are filled in. */
    page(nameOrProperties?: unknown, props?: unknown): void {
      const named = typeof nameOrProperties === 'string';
      whenAllowed((at, page) =>
        send(
          'page',
          { ...(named && nameOrProperties.trim() !== '' ? { name: nameOrProperties.trim() } : {}), properties: { ...page, ...properties(named ? props : nameOrProperties) } },
          at,
          page,
        ),
      );
    },

    /** Links the user ID the visitor had before (default: the current user, else this browser) to `userId`. */
    alias(userId: unknown, previousId?: unknown): void {
      const to = identifier(userId);
      if (to === undefined) return warn('alias(userId, previousId): userId must be a non-empty string');
      whenAllowed((at, page) => send('alias', { userId: to, previousId: identifier(previousId) ?? visitor().userId() ?? visitor().anonymousId() }, at, page));
    },

    /** Associates the user with a group (an account, an organisation). */
    group(groupId: unknown, traits?: unknown): void {
      const id = identifier(groupId);
      if (id === undefined) return warn('group(groupId, traits): groupId must be a non-empty string');
      whenAllowed((at, page) => send('group', { groupId: id, traits: properties(traits) }, at, page));
    },

    /** Sign-out: later events carry a new anonymous ID and neither the user nor the click of the person before. */
    reset: (): void => whenAllowed(() => visitor().reset()),

    setAnonymousId(anonymousId: unknown): void {
      const id = identifier(anonymousId);
      if (id === undefined) return warn('setAnonymousId(id): id must be a non-empty string');
      whenAllowed(() => visitor().setAnonymousId(id));
    },

    /** This browser's anonymous ID; empty while consent is not granted. */
    getAnonymousId: (): string => (consent() === 'granted' ? visitor().anonymousId() : ''),

    /** Consent granted: the calls kept meanwhile run, in order. */
    release(): void {
      const calls = held;
      held = [];
      calls.forEach((call) => call());
    },

    /** Consent revoked: the calls kept meanwhile are dropped. */
    discard(): void {
      held = [];
    },
  };
}

export type Tracker = ReturnType<typeof createTracker>;
