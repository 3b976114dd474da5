import type { Message, Queue } from './queue';
import type { KeyValueStore } from './store';
import { currentClick, type Visitor } from './visitor';

export const LIBRARY = { name: 'signalbox.js', version: '1.0.0' } as const;

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

export interface TrackerOptions {
  queue: Pick<Queue, 'push'>;
  visitor: Visitor;
  /** Where the click was kept (see `captureClick`). */
  clicks: KeyValueStore;
  attributionDays: number;
  env: Environment;
  warn(text: string): void;
}

function properties(value: unknown): Properties {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Properties) : {};
}

function identifier(value: unknown): string | undefined {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  return text === '' ? undefined : text;
}

/** The public calls. Every message carries the anonymous ID, the known user ID, the kept `ttclid` and `_ttp`. */
export function createTracker({ queue, visitor, clicks, attributionDays, env, warn }: TrackerOptions) {
  function send(type: string, fields: Properties): void {
    const now = env.now();
    const click = currentClick(clicks, now, attributionDays);
    const ttp = env.ttp();
    const userId = visitor.userId();
    const message: Message = {
      type,
      messageId: env.newId(),
      timestamp: new Date(now).toISOString(),
      anonymousId: visitor.anonymousId,
      ...(userId === undefined ? {} : { userId }),
      context: {
        library: LIBRARY,
        page: env.page(),
        userAgent: env.userAgent,
        locale: env.locale,
        ...(click === undefined ? {} : { ttclid: click.id }),
        ...(ttp === undefined ? {} : { ttp }),
      },
      ...fields,
    };
    queue.push(message);
  }

  return {
    track(event: unknown, props?: unknown): void {
      if (typeof event !== 'string' || event.trim() === '') return warn('track(event, properties): event must be a non-empty string');
      send('track', { event: event.trim(), properties: properties(props) });
    },

    /** `identify(userId, traits?)` remembers the user for later events; `identify(traits)` adds traits only. */
    identify(userIdOrTraits?: unknown, traits?: unknown): void {
      if (typeof userIdOrTraits === 'object' && userIdOrTraits !== null) return send('identify', { traits: properties(userIdOrTraits) });
      const userId = identifier(userIdOrTraits);
      if (userId === undefined) return warn('identify(userId, traits): userId must be a non-empty string');
      visitor.setUserId(userId);
      send('identify', { traits: properties(traits) });
    },

    /** `page()`, `page(name)`, `page(name, properties)` or `page(properties)`; the page's URL, path and referrer are filled in. */
    page(nameOrProperties?: unknown, props?: unknown): void {
      const named = typeof nameOrProperties === 'string';
      send('page', {
        ...(named && nameOrProperties.trim() !== '' ? { name: nameOrProperties.trim() } : {}),
        properties: { ...env.page(), ...properties(named ? props : nameOrProperties) },
      });
    },

    getAnonymousId: (): string => visitor.anonymousId,
  };
}

export type Tracker = ReturnType<typeof createTracker>;
