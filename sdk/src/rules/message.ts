import type { Issue, PathPart } from './issues.js';
import { checkJsonStructure, checkJsonText, mayHoldUnstorableText, objectJson } from './json-value.js';
import { MAX_IDENTIFIER_BYTES, MAX_MESSAGE_BYTES, MAX_MESSAGE_ID_LENGTH, MAX_NAME_LENGTH } from './limits.js';
import { exceedsUtf8Bytes, textProblem } from './text.js';
import { timestampProblem } from './timestamp.js';

export const MESSAGE_TYPES = ['track', 'identify', 'page', 'screen', 'group', 'alias'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];

export type JsonObject = Record<string, unknown>;

/** A message the rules accepted: known fields only, identifiers as strings, the track event name trimmed. */
export interface ValidMessage {
  type: MessageType;
  messageId?: string;
  timestamp?: string;
  userId?: string | null;
  anonymousId?: string | null;
  context?: JsonObject;
  properties?: JsonObject;
  traits?: JsonObject;
  integrations?: JsonObject;
  /** track */
  event?: string;
  /** page, screen */
  name?: string | null;
  /** page */
  category?: string | null;
  /** group */
  groupId?: string;
  /** alias */
  previousId?: string;
}

export type MessageCheck =
  | { ok: true; message: ValidMessage; /** The message's JSON, within the byte limit checked. */ json: string }
  | { ok: false; issues: Issue[] };

const OBJECT_FIELDS = ['context', 'properties', 'traits', 'integrations'] as const;
/** Properties that become indexed identifiers of a conversion (its deduplication `event_id`). */
const INDEXED_PROPERTIES = ['event_id', 'eventId', 'order_id'] as const;
const TYPE_LIST = 'track, identify, page, screen, group, alias';

/** The fields a message may hold, in the order the ingest API has always stored them. */
const FIELDS = ['messageId', 'timestamp', 'userId', 'anonymousId', ...OBJECT_FIELDS, 'type', 'event', 'name', 'category', 'groupId', 'previousId'] as const;
/** One path array per field, made once: the paths are needed only to report an issue. */
const PATHS = Object.fromEntries(FIELDS.map((field) => [field, Object.freeze([field])])) as Record<keyof ValidMessage, readonly PathPart[]>;
const PROPERTY_PATHS = Object.fromEntries(INDEXED_PROPERTIES.map((key) => [key, Object.freeze(['properties', key])])) as Record<(typeof INDEXED_PROPERTIES)[number], readonly PathPart[]>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Collects the issues of one message; each reader returns the field's accepted value (undefined when absent or bad). */
class Reader {
  readonly issues: Issue[] = [];

  constructor(private readonly raw: JsonObject) {}

  fail(path: readonly PathPart[], message: string): undefined {
    this.issues.push({ path, message });
    return undefined;
  }

  /** A string of at most `maxLength` characters (whether storage takes its text is checked on the message's JSON). */
  text(path: readonly PathPart[], text: string, maxLength?: number): string | undefined {
    if (maxLength !== undefined && text.length > maxLength) return this.fail(path, `must be at most ${maxLength} characters`);
    return text;
  }

  /** An indexed identifier: a string or finite number (kept as a string) within MAX_IDENTIFIER_BYTES. */
  identifierText(path: readonly PathPart[], value: string | number): string | undefined {
    const text = String(value);
    if (text.length <= MAX_IDENTIFIER_BYTES && exceedsUtf8Bytes(text, MAX_IDENTIFIER_BYTES)) {
      return this.fail(path, `must be at most ${MAX_IDENTIFIER_BYTES} bytes of UTF-8 (characters beyond ASCII take 2 to 4 bytes)`);
    }
    return this.text(path, text, MAX_IDENTIFIER_BYTES);
  }

  /** `userId`, `anonymousId`: absent, null, a string or a finite number. */
  optionalIdentifier(key: 'userId' | 'anonymousId'): string | null | undefined {
    const value = this.raw[key];
    if (value === undefined || value === null) return value;
    if (typeof value !== 'string' && !isFiniteNumber(value)) return this.fail(PATHS[key], 'must be a string or a number');
    return this.identifierText(PATHS[key], value);
  }

  /** `groupId`, `previousId`: a non-empty string or a finite number. */
  requiredId(key: 'groupId' | 'previousId', type: MessageType, indexed: boolean): string | undefined {
    const value = this.raw[key];
    if (typeof value !== 'string' && !isFiniteNumber(value)) return this.fail(PATHS[key], `is required for ${type} messages`);
    if (value === '') return this.fail(PATHS[key], 'must not be empty');
    return indexed ? this.identifierText(PATHS[key], value) : this.text(PATHS[key], String(value));
  }

  optionalString(key: 'name' | 'category', maxLength?: number): string | null | undefined {
    const value = this.raw[key];
    if (value === undefined || value === null) return value;
    if (typeof value !== 'string') return this.fail(PATHS[key], 'must be a string');
    return this.text(PATHS[key], value, maxLength);
  }

  messageId(): string | undefined {
    const value = this.raw.messageId;
    if (value === undefined) return undefined;
    if (typeof value !== 'string') return this.fail(PATHS.messageId, 'must be a string');
    if (value === '') return this.fail(PATHS.messageId, 'must not be empty');
    return this.text(PATHS.messageId, value, MAX_MESSAGE_ID_LENGTH);
  }

  timestamp(): string | undefined {
    const value = this.raw.timestamp;
    if (value === undefined) return undefined;
    const problem = timestampProblem(value);
    return problem === undefined ? (value as string) : this.fail(PATHS.timestamp, problem);
  }

  object(key: (typeof OBJECT_FIELDS)[number]): JsonObject | undefined {
    const value = this.raw[key];
    if (value === undefined) return undefined;
    if (!isObject(value)) return this.fail(PATHS[key], 'must be an object');
    return checkJsonStructure(value, PATHS[key], 2, this.issues) ? value : undefined;
  }

  trackEvent(): string | undefined {
    const value = this.raw.event;
    if (typeof value !== 'string') return this.fail(PATHS.event, 'is required for track messages');
    const event = value.trim();
    if (event === '') return this.fail(PATHS.event, 'must not be empty');
    return this.text(PATHS.event, event, MAX_NAME_LENGTH);
  }
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function checkIndexedProperties(reader: Reader, properties: JsonObject | undefined): void {
  if (properties === undefined) return;
  for (const key of INDEXED_PROPERTIES) {
    const value = properties[key];
    if (typeof value === 'string' || isFiniteNumber(value)) reader.identifierText(PROPERTY_PATHS[key], value);
  }
}

/**
 * Checks one message against every rule of the ingest API, in a single pass without recursion: its type and fields
 * (as DESIGN.md's wire contract describes them), text PostgreSQL can store (no NUL, no unpaired surrogate, in any
 * string or key at any depth), timestamps in years 0001–9999, nesting within MAX_NESTING_DEPTH, identifiers that fit
 * their indexes, and at most `maxBytes` of JSON (MAX_MESSAGE_BYTES unless the ingest API says otherwise: a verified
 * webhook's message is bounded by its request's body only). Returns the accepted message and its JSON, or every issue
 * with its field path (format them with `formatIssue`).
 */
export function checkMessage(raw: unknown, maxBytes: number = MAX_MESSAGE_BYTES): MessageCheck {
  if (!isObject(raw)) return { ok: false, issues: [{ path: [], message: `must be a message object with a type (${TYPE_LIST})` }] };
  const type = raw.type as MessageType;
  if (!(MESSAGE_TYPES as readonly unknown[]).includes(type)) return { ok: false, issues: [{ path: ['type'], message: `must be one of ${TYPE_LIST}` }] };

  const reader = new Reader(raw);
  // Field order as the ingest API has always stored messages (a message's derived messageId hashes its JSON); only
  // the fields present are set, so the message holds no `undefined` values.
  const message = {} as ValidMessage;
  const messageId = reader.messageId();
  if (messageId !== undefined) message.messageId = messageId;
  const timestamp = reader.timestamp();
  if (timestamp !== undefined) message.timestamp = timestamp;
  const userId = reader.optionalIdentifier('userId');
  if (userId !== undefined) message.userId = userId;
  const anonymousId = reader.optionalIdentifier('anonymousId');
  if (anonymousId !== undefined) message.anonymousId = anonymousId;
  for (const key of OBJECT_FIELDS) {
    const value = reader.object(key);
    if (value !== undefined) message[key] = value;
  }
  checkIndexedProperties(reader, message.properties);
  message.type = type;
  if (type === 'track') {
    const event = reader.trackEvent();
    if (event !== undefined) message.event = event;
  } else if (type === 'page' || type === 'screen') {
    const name = reader.optionalString('name', MAX_NAME_LENGTH);
    if (name !== undefined) message.name = name;
    const category = type === 'page' ? reader.optionalString('category') : undefined;
    if (category !== undefined) message.category = category;
  } else if (type === 'group' || type === 'alias') {
    const key = type === 'group' ? 'groupId' : 'previousId';
    const id = reader.requiredId(key, type, type === 'alias');
    if (id !== undefined) message[key] = id;
  }

  if (reader.issues.length > 0) return { ok: false, issues: [...reader.issues, ...textIssues(message)] };
  if ((message.userId ?? '') === '' && (message.anonymousId ?? '') === '') {
    return { ok: false, issues: [{ path: [], message: 'needs a userId or an anonymousId' }] };
  }
  return withJson(message, maxBytes);
}

/** Text storage refuses (NUL, unpaired surrogates) in any string or key of the message, with its path. */
function textIssues(message: ValidMessage): Issue[] {
  const issues: Issue[] = [];
  for (const key of FIELDS) {
    const value = message[key];
    if (typeof value === 'string') {
      const problem = textProblem(value);
      if (problem !== undefined) issues.push({ path: PATHS[key], message: problem });
    } else if (typeof value === 'object' && value !== null) {
      checkJsonText(value, PATHS[key], 2, issues);
    }
  }
  return issues;
}

/** `,"key":<JSON of value>`, or nothing for a field the message does not hold. */
function field(key: string, value: string | null | undefined): string {
  return value === undefined ? '' : `,"${key}":${JSON.stringify(value)}`;
}

function objectField(key: string, value: JsonObject | undefined): string {
  return value === undefined ? '' : `,"${key}":${objectJson(value)}`;
}

/**
 * JSON.stringify(message), written field by field in the order the message holds them: faster than serializing the
 * message object, and a frozen context is serialized once. A client does this for every event.
 */
function messageJson(m: ValidMessage): string {
  const json =
    field('messageId', m.messageId) +
    field('timestamp', m.timestamp) +
    field('userId', m.userId) +
    field('anonymousId', m.anonymousId) +
    objectField('context', m.context) +
    objectField('properties', m.properties) +
    objectField('traits', m.traits) +
    objectField('integrations', m.integrations) +
    field('type', m.type) +
    field('event', m.event) +
    field('name', m.name) +
    field('category', m.category) +
    field('groupId', m.groupId) +
    field('previousId', m.previousId);
  return `{${json.slice(1)}}`;
}

function withJson(message: ValidMessage, maxBytes: number): MessageCheck {
  let json: string;
  try {
    json = messageJson(message);
  } catch (error) {
    return { ok: false, issues: [{ path: [], message: `cannot be converted to JSON (${(error as Error).message})` }] };
  }
  // One scan of the JSON stands for a look at every string and key; only a suspect needs the exact walk.
  if (mayHoldUnstorableText(json)) {
    const issues = textIssues(message);
    if (issues.length > 0) return { ok: false, issues };
  }
  if (json.length * 3 > maxBytes) {
    const bytes = Buffer.byteLength(json, 'utf8');
    if (bytes > maxBytes) {
      return { ok: false, issues: [{ path: [], message: `is ${bytes} bytes of JSON; the limit is ${maxBytes} bytes per message`, tooLarge: true }] };
    }
  }
  return { ok: true, message, json };
}
