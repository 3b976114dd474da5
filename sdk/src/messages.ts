import { generateUuid } from './ids';
import { LIBRARY_NAME, LIBRARY_VERSION } from './library';
import { MAX_FIELD_LENGTHS, MAX_MESSAGE_BYTES } from './limits';

/** Free-form event properties, e.g. `{ revenue: 49.9, currency: 'EUR', order_id: 'o-1' }`. */
export type Properties = Record<string, unknown>;
/** Free-form user or group traits, e.g. `{ email: 'ann@example.com', plan: 'pro' }`. */
export type Traits = Record<string, unknown>;
/** Segment-style context: `ip`, `userAgent`, `locale`, `page: { url, referrer }`, `traits`, `ttclid`, `ttp`, … */
export type Context = Record<string, unknown>;

/** Fields every call accepts besides its own. */
export interface MessageOptions {
  /** Anonymous ID (the web script's, or `client.getAnonymousId()`); sent with a userId, it links the two. */
  anonymousId?: string;
  /** Merged into the message's `context`; `context.library` is always set by this package. */
  context?: Context;
  /** When it happened, for historical imports. Default: the time of the call. */
  timestamp?: Date | string;
  /** Your own unique ID, to make re-sending the same event idempotent. Default: a random UUID. */
  messageId?: string;
}

/** Argument of `track()`: `event` and at least one of `userId` and `anonymousId`. */
export interface TrackOptions extends MessageOptions {
  event: string;
  userId?: string;
  properties?: Properties;
}

/** Object form of `page()`, which also allows an anonymous page view. */
export interface PageOptions extends MessageOptions {
  userId?: string;
  name?: string;
  properties?: Properties;
}

/** A message as the ingest API receives it. */
export interface WireMessage {
  type: 'track' | 'identify' | 'group' | 'page';
  messageId: string;
  timestamp: string;
  userId?: string;
  anonymousId?: string;
  event?: string;
  name?: string;
  groupId?: string;
  properties?: Properties;
  traits?: Traits;
  context: Context;
}

/** Builds messages for one public method, whose name starts every error message. */
class MessageBuilder {
  constructor(private readonly call: string) {}

  fail(problem: string): TypeError {
    return new TypeError(`${this.call}: ${problem}`);
  }

  requiredString(field: string, value: unknown): string {
    if (value === undefined || value === null || value === '') throw this.fail(`${field} is required`);
    return this.string(field, value);
  }

  optionalString(field: string, value: unknown): string | undefined {
    return value === undefined ? undefined : this.string(field, value);
  }

  private string(field: string, value: unknown): string {
    if (typeof value !== 'string') throw this.fail(`${field} must be a string, got ${typeName(value)}`);
    if (value.trim() === '') throw this.fail(`${field} must not be empty or blank`);
    const maxLength = (MAX_FIELD_LENGTHS as Record<string, number | undefined>)[field];
    if (maxLength !== undefined && value.length > maxLength) {
      throw this.fail(`${field} must be at most ${maxLength} characters, got ${value.length}`);
    }
    return value;
  }

  optionalObject(field: string, value: unknown): Record<string, unknown> | undefined {
    if (value === undefined) return undefined;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw this.fail(`${field} must be an object, got ${typeName(value)}`);
    }
    return value as Record<string, unknown>;
  }

  options(value: unknown, example: string): Record<string, unknown> {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw this.fail(`expected an options object like ${example}, got ${typeName(value)}`);
    }
    return value as Record<string, unknown>;
  }

  /** The fields common to every message: identity, messageId, timestamp and context. */
  common(userId: string | undefined, options: Record<string, unknown>): CommonFields {
    const anonymousId = this.optionalString('anonymousId', options.anonymousId);
    if (userId === undefined && anonymousId === undefined) {
      throw this.fail('userId or anonymousId is required (pass at least one)');
    }
    const context = this.optionalObject('context', options.context);
    return {
      messageId: this.optionalString('messageId', options.messageId) ?? generateUuid(),
      timestamp: options.timestamp === undefined ? isoNow() : this.timestamp(options.timestamp),
      userId,
      anonymousId,
      context: context === undefined ? LIBRARY_CONTEXT : { ...context, library: LIBRARY_CONTEXT.library },
    };
  }

  private timestamp(value: unknown): string {
    const date = value instanceof Date ? value : typeof value === 'string' ? new Date(value) : undefined;
    if (!date || Number.isNaN(date.getTime())) {
      throw this.fail(`timestamp must be a Date or an ISO-8601 string, got ${typeName(value)} ${String(value)}`);
    }
    return date.toISOString();
  }
}

type CommonFields = Pick<WireMessage, 'messageId' | 'timestamp' | 'userId' | 'anonymousId' | 'context'>;

const LIBRARY_CONTEXT: Context = Object.freeze({
  library: Object.freeze({ name: LIBRARY_NAME, version: LIBRARY_VERSION }),
});

let lastNowMs = Number.NaN;
let lastNowIso = '';

/** The current time in ISO-8601; formatting a Date is slow enough to matter, so it is done once per millisecond. */
function isoNow(): string {
  const now = Date.now();
  if (now !== lastNowMs) {
    lastNowMs = now;
    lastNowIso = new Date(now).toISOString();
  }
  return lastNowIso;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}

// Each builder lists every field in wire order; JSON.stringify leaves out the ones that are undefined.

export function buildTrack(options: TrackOptions): WireMessage {
  const build = new MessageBuilder('track()');
  const fields = build.options(options, '{ event, userId }');
  const event = build.requiredString('event', fields.event);
  const userId = build.optionalString('userId', fields.userId);
  const properties = build.optionalObject('properties', fields.properties) ?? {};
  const common = build.common(userId, fields);
  return {
    type: 'track',
    messageId: common.messageId,
    timestamp: common.timestamp,
    userId: common.userId,
    anonymousId: common.anonymousId,
    event,
    properties,
    context: common.context,
  };
}

export function buildIdentify(userId: string, traits?: Traits, options?: MessageOptions): WireMessage {
  const build = new MessageBuilder('identify()');
  const id = build.requiredString('userId', userId);
  const traitFields = build.optionalObject('traits', traits) ?? {};
  const common = build.common(id, build.optionalObject('options', options) ?? {});
  return {
    type: 'identify',
    messageId: common.messageId,
    timestamp: common.timestamp,
    userId: common.userId,
    anonymousId: common.anonymousId,
    traits: traitFields,
    context: common.context,
  };
}

export function buildGroup(userId: string, groupId: string, traits?: Traits, options?: MessageOptions): WireMessage {
  const build = new MessageBuilder('group()');
  const id = build.requiredString('userId', userId);
  const group = build.requiredString('groupId', groupId);
  const traitFields = build.optionalObject('traits', traits) ?? {};
  const common = build.common(id, build.optionalObject('options', options) ?? {});
  return {
    type: 'group',
    messageId: common.messageId,
    timestamp: common.timestamp,
    userId: common.userId,
    anonymousId: common.anonymousId,
    groupId: group,
    traits: traitFields,
    context: common.context,
  };
}

export function buildPage(
  userIdOrOptions: string | PageOptions,
  name?: string,
  properties?: Properties,
  options?: MessageOptions,
): WireMessage {
  const build = new MessageBuilder('page()');
  let fields: Record<string, unknown>;
  let userId: string | undefined;
  if (typeof userIdOrOptions === 'object' && userIdOrOptions !== null && !Array.isArray(userIdOrOptions)) {
    fields = userIdOrOptions as Record<string, unknown>;
    userId = build.optionalString('userId', fields.userId);
  } else {
    fields = { ...build.optionalObject('options', options), name, properties };
    userId = build.requiredString('userId', userIdOrOptions);
  }
  const pageName = build.optionalString('name', fields.name);
  const pageProperties = build.optionalObject('properties', fields.properties) ?? {};
  const common = build.common(userId, fields);
  return {
    type: 'page',
    messageId: common.messageId,
    timestamp: common.timestamp,
    userId: common.userId,
    anonymousId: common.anonymousId,
    name: pageName,
    properties: pageProperties,
    context: common.context,
  };
}

const LIBRARY_CONTEXT_JSON = JSON.stringify(LIBRARY_CONTEXT);

/** `,"key":<JSON of value>`, or nothing when the value is undefined or serializes to nothing (as JSON.stringify does). */
function field(key: string, value: unknown): string {
  const json = value === undefined ? undefined : (JSON.stringify(value) as string | undefined);
  return json === undefined ? '' : `,"${key}":${json}`;
}

/**
 * The JSON of a message, equal to `JSON.stringify(message)` but built field by field: the envelope and the library
 * context are the same for every event, and only the caller's values go through JSON.stringify.
 */
function messageJson(message: WireMessage): string {
  return (
    `{"type":"${message.type}"` +
    field('messageId', message.messageId) +
    `,"timestamp":"${message.timestamp}"` +
    field('userId', message.userId) +
    field('anonymousId', message.anonymousId) +
    field('event', message.event) +
    field('name', message.name) +
    field('groupId', message.groupId) +
    field('properties', message.properties) +
    field('traits', message.traits) +
    (message.context === LIBRARY_CONTEXT ? `,"context":${LIBRARY_CONTEXT_JSON}` : field('context', message.context)) +
    '}'
  );
}

/** JSON of one message, or a rejection naming the call when it cannot be serialized or is over the size cap. */
export function serializeMessage(call: string, message: WireMessage): string {
  let json: string;
  try {
    json = messageJson(message);
  } catch (error) {
    throw new TypeError(`${call}: the event cannot be converted to JSON (${(error as Error).message})`);
  }
  // UTF-8 needs at most 3 bytes per UTF-16 unit: only longer strings need measuring.
  const bytes = json.length * 3 <= MAX_MESSAGE_BYTES ? 0 : Buffer.byteLength(json);
  if (bytes > MAX_MESSAGE_BYTES) {
    throw new RangeError(
      `${call}: the event is ${bytes} bytes as JSON, over the limit of ${MAX_MESSAGE_BYTES} bytes per event; ` +
        'send large data elsewhere and reference it from properties',
    );
  }
  return json;
}
