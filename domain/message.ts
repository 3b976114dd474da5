import { meaningfulIdentifier } from './identifiers';

type Json = Record<string, unknown>;

/** A stored Segment-shaped message, as the ingest API accepted it (see DESIGN.md "Wire contract"). */
export interface TrackedMessage {
  type: 'track' | 'identify' | 'group' | 'page' | 'screen' | 'alias';
  messageId: string;
  timestamp: string;
  userId?: string | null;
  anonymousId?: string | null;
  previousId?: string | null;
  event?: string;
  name?: string;
  groupId?: string;
  properties?: Json;
  traits?: Json;
  context?: Json;
}

/** A real ttclid is ~325 ASCII characters; the bound is in bytes because click IDs share an index entry (at most 2,704 bytes) with the anonymous ID. */
const MAX_CLICK_ID_BYTES = 1024;

function record(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function queryParam(url: string | undefined, name: string): string | undefined {
  // Most URLs do not hold the name, written out or percent-encoded: they need no parsing.
  if (url === undefined || (!url.includes(name) && !url.includes('%'))) return undefined;
  try {
    return new URL(url).searchParams.get(name) ?? undefined;
  } catch {
    return undefined;
  }
}

function clickId(value: unknown): string | undefined {
  const id = meaningfulIdentifier(value);
  return id !== undefined && Buffer.byteLength(id) <= MAX_CLICK_ID_BYTES ? id : undefined;
}

export function pageUrl(message: TrackedMessage): string | undefined {
  return text(record(message.context?.page)?.url) ?? text(message.properties?.url);
}

export function pageReferrer(message: TrackedMessage): string | undefined {
  return text(record(message.context?.page)?.referrer) ?? text(message.properties?.referrer);
}

/** `ttclid` from `context.ttclid`, `properties.ttclid`, or the `ttclid` query parameter of the page URL. */
export function readTtclid(message: TrackedMessage): string | undefined {
  return (
    clickId(message.context?.ttclid) ??
    clickId(message.properties?.ttclid) ??
    clickId(queryParam(text(record(message.context?.page)?.url), 'ttclid')) ??
    clickId(queryParam(text(message.properties?.url), 'ttclid'))
  );
}

/** `_ttp` from `context.ttp`, `properties.ttp` or `properties._ttp`. */
export function readTtp(message: TrackedMessage): string | undefined {
  return clickId(message.context?.ttp) ?? clickId(message.properties?.ttp) ?? clickId(message.properties?._ttp);
}

/** The values of the first of traits, `context.traits` and properties that holds the key: one value, or each of an array. */
function traitValues(message: TrackedMessage, keys: readonly string[]): unknown[] {
  const sources = [message.traits, record(message.context?.traits), message.properties];
  for (const source of sources) {
    for (const key of keys) {
      const value = source?.[key];
      const values = (Array.isArray(value) ? value : [value]).filter((v) => v !== undefined && v !== null && v !== '');
      if (values.length > 0) return values;
    }
  }
  return [];
}

/** Raw (unhashed) emails from traits, `context.traits` or properties, in that order: one, or several as an array. */
export function readEmails(message: TrackedMessage): unknown[] {
  return traitValues(message, ['email']);
}

/** Raw (unhashed) phones from traits, `context.traits` or properties, in that order: one, or several as an array. */
export function readPhones(message: TrackedMessage): unknown[] {
  return traitValues(message, ['phone', 'phone_number']);
}

/** The sender's own external IDs besides the user ID (`external_id` or `externalId`, one or an array). */
export function readExternalIds(message: TrackedMessage): unknown[] {
  return traitValues(message, ['external_id', 'externalId']);
}

export interface DeviceContext {
  ip?: string;
  userAgent?: string;
  locale?: string;
}

export function readDeviceContext(message: TrackedMessage): DeviceContext {
  return {
    ip: text(message.context?.ip),
    userAgent: text(message.context?.userAgent),
    locale: text(message.context?.locale),
  };
}

/** A mobile-app event: Segment's mobile libraries fill `context.app` and `context.device`. */
export function isAppMessage(message: TrackedMessage): boolean {
  return record(message.context?.app) !== undefined && record(message.context?.device) !== undefined;
}
