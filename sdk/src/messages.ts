import { SignalboxValidationError } from './errors.js';
import { generateUuid } from './ids.js';
import { LIBRARY_NAME, LIBRARY_VERSION } from './library.js';
import { checkMessage, formatIssue, type MessageType } from './rules/index.js';

/** Free-form event properties, e.g. `{ revenue: 49.9, currency: 'EUR', order_id: 'o-1' }`. */
export type Properties = Record<string, unknown>;
/** Free-form user or group traits, e.g. `{ email: 'ann@example.com', plan: 'pro' }`. */
export type Traits = Record<string, unknown>;
/** Segment-style context: `ip`, `userAgent`, `locale`, `page: { url, referrer }`, `traits`, `ttclid`, `ttp`, … */
export type Context = Record<string, unknown>;

/** Fields every call accepts besides its own. */
export interface MessageOptions {
  /** Anonymous ID (the web script's, or `client.getAnonymousId()`); sent with a userId, it links the two. */
  anonymousId?: string | undefined;
  /** Merged into the message's `context`; `context.library` is always set by this package. */
  context?: Context | undefined;
  /** When it happened, for historical imports: a Date or an ISO-8601 string with a zone. Default: the call's time. */
  timestamp?: Date | string | undefined;
  /** Your own unique ID, to make re-sending the same event idempotent. Default: a random UUID. */
  messageId?: string | undefined;
}

/** Who did it: a `userId`, an `anonymousId`, or both (which links the two). */
export type Identity = { userId: string; anonymousId?: string | undefined } | { userId?: string | undefined; anonymousId: string };

type CommonOptions = Omit<MessageOptions, 'anonymousId'>;

/** Argument of `track()`: `event`, and `userId` or `anonymousId` (or both). */
export type TrackOptions = CommonOptions & Identity & { event: string; properties?: Properties | undefined };

/** Object form of `page()`, which also allows an anonymous page view. */
export type PageOptions = CommonOptions & Identity & { name?: string | undefined; properties?: Properties | undefined };

/** Object form of `screen()`, for app screens viewed by a known or anonymous user. */
export type ScreenOptions = PageOptions;

/** A message as the ingest API receives it, before the rules check it. */
interface WireMessage {
  type: MessageType;
  messageId: unknown;
  timestamp: unknown;
  userId?: unknown;
  anonymousId?: unknown;
  event?: unknown;
  name?: unknown;
  groupId?: unknown;
  previousId?: unknown;
  properties?: unknown;
  traits?: unknown;
  context: unknown;
}

const LIBRARY = Object.freeze({ name: LIBRARY_NAME, version: LIBRARY_VERSION });
const LIBRARY_CONTEXT: Context = Object.freeze({ library: LIBRARY });

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

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}

/** Builds the wire message of one call and checks it with the ingest API's own rules, naming the call in errors. */
class MessageBuilder {
  constructor(private readonly call: string) {}

  fail(...issues: string[]): SignalboxValidationError {
    return new SignalboxValidationError(this.call, issues);
  }

  /** The object argument of `track()` or of the object forms of `page()`/`screen()`. */
  options(value: unknown, example: string): Record<string, unknown> {
    if (!isObject(value)) throw this.fail(`expected an options object like ${example}, got ${typeName(value)}`);
    return value;
  }

  /** The positional `userId` of identify(), group(), alias() and page()/screen(), which the spec makes required. */
  userId(value: unknown, hint = ''): unknown {
    if (value === undefined || value === null || value === '') throw this.fail(`userId is required${hint}`);
    return value;
  }

  optionalOptions(value: unknown): Record<string, unknown> {
    return value === undefined ? {} : this.options(value, '{ anonymousId, timestamp, context, messageId }');
  }

  /** messageId, timestamp and context: the fields every message carries. */
  common(type: MessageType, options: Record<string, unknown>): WireMessage {
    const { context, timestamp, messageId } = options;
    return {
      type,
      messageId: messageId === undefined ? generateUuid() : messageId,
      timestamp: timestamp === undefined ? isoNow() : this.timestamp(timestamp),
      context: isObject(context) ? { ...context, library: LIBRARY } : context === undefined ? LIBRARY_CONTEXT : context,
    };
  }

  /** The message's JSON, or a SignalboxValidationError listing every rule it breaks. */
  check(message: WireMessage): string {
    const result = checkMessage(message);
    if (!result.ok) throw this.fail(...result.issues.map((issue) => formatIssue(issue, '', 'the event')));
    return result.json;
  }

  private timestamp(value: unknown): unknown {
    if (!(value instanceof Date)) return value;
    if (Number.isNaN(value.getTime())) throw this.fail('timestamp is an invalid Date');
    return value.toISOString();
  }
}

/** Each builder returns the JSON of a checked message, or throws a SignalboxValidationError. */

export function trackJson(options: TrackOptions): string {
  const build = new MessageBuilder('track()');
  const fields = build.options(options, '{ event, userId }');
  const message = build.common('track', fields);
  message.userId = fields.userId;
  message.anonymousId = fields.anonymousId;
  message.event = fields.event;
  message.properties = fields.properties ?? {};
  return build.check(message);
}

export function identifyJson(userId: string, traits?: Traits, options?: MessageOptions): string {
  const build = new MessageBuilder('identify()');
  const fields = build.optionalOptions(options);
  const message = build.common('identify', fields);
  message.userId = build.userId(userId);
  message.anonymousId = fields.anonymousId;
  message.traits = traits ?? {};
  return build.check(message);
}

export function groupJson(userId: string, groupId: string, traits?: Traits, options?: MessageOptions): string {
  const build = new MessageBuilder('group()');
  const fields = build.optionalOptions(options);
  const message = build.common('group', fields);
  message.userId = build.userId(userId);
  message.anonymousId = fields.anonymousId;
  message.groupId = groupId;
  message.traits = traits ?? {};
  return build.check(message);
}

export function aliasJson(userId: string, previousId: string, options?: MessageOptions): string {
  const build = new MessageBuilder('alias()');
  const fields = build.optionalOptions(options);
  const message = build.common('alias', fields);
  message.userId = build.userId(userId);
  message.anonymousId = fields.anonymousId;
  message.previousId = previousId;
  return build.check(message);
}

/** `page()` and `screen()`: `(userId, name?, properties?, options?)` or one object that may be anonymous. */
export function viewJson(
  type: 'page' | 'screen',
  userIdOrOptions: string | PageOptions,
  name?: string,
  properties?: Properties,
  options?: MessageOptions,
): string {
  const build = new MessageBuilder(`${type}()`);
  const fields: Record<string, unknown> = isObject(userIdOrOptions)
    ? userIdOrOptions
    : { ...build.optionalOptions(options), userId: build.userId(userIdOrOptions, ` (or pass one object: ${type}({ anonymousId, name, properties }))`), name, properties };
  const message = build.common(type, fields);
  message.userId = fields.userId;
  message.anonymousId = fields.anonymousId;
  message.name = fields.name;
  message.properties = fields.properties ?? {};
  return build.check(message);
}
