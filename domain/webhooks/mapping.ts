import { sha256Hex } from '../hashing';
import { parsePath, readPath, type PathStep } from './json-path';
import { text } from './webhook-json';
import type { SourceNote, WebhookMessage } from './webhook-message';

/**
 * How a generic webhook's JSON body becomes a Segment track message: each field a path into the body (`data.object.id`)
 * or, for the event name and currency, a fixed text in double quotes (`"Order Completed"`). Declarative only: no code
 * from the user runs.
 */
export interface WebhookMapping {
  event: string;
  messageId?: string;
  userId?: string;
  anonymousId?: string;
  email?: string;
  phone?: string;
  value?: string;
  /** The value is in the currency's minor unit (cents), as Stripe sends amounts: it is divided by 100. */
  valueInCents?: boolean;
  currency?: string;
  orderId?: string;
  /** A list of items with Segment's product fields (product_id or sku or id, name, price, quantity). */
  products?: string;
  timestamp?: string;
}

export const MAPPING_FIELDS = ['event', 'messageId', 'userId', 'anonymousId', 'email', 'phone', 'value', 'currency', 'orderId', 'products', 'timestamp'] as const;
export type MappingField = (typeof MAPPING_FIELDS)[number];

type Expression = { literal: string } | { path: string; steps: PathStep[] };

const LITERAL = /^"([^"]{1,200})"$/;

function parseExpression(raw: string): Expression | { problem: string } {
  const literal = LITERAL.exec(raw.trim());
  if (literal !== null) return { literal: literal[1] as string };
  const parsed = parsePath(raw);
  return 'problem' in parsed ? parsed : { path: raw.trim(), steps: parsed.steps };
}

/** What is wrong with one field of a mapping, or undefined. Only the event name and currency may be fixed texts. */
export function mappingFieldProblem(field: MappingField, raw: string): string | undefined {
  const expression = parseExpression(raw);
  if ('problem' in expression) return `${expression.problem} (or, ${field === 'event' || field === 'currency' ? `a fixed ${field === 'event' ? 'name' : 'code'} in double quotes, e.g. ${field === 'event' ? '"Order Completed"' : '"USD"'}` : 'left out'})`;
  if ('literal' in expression && field !== 'event' && field !== 'currency') return 'must be a path into the body, e.g. data.object.id: only the event name and currency may be fixed texts';
  return undefined;
}

/** A mapped message, and the fields whose path found nothing in the body (left out of the message). */
export type MappedWebhook = { ok: true; message: WebhookMessage; unmatched: { field: MappingField; path: string }[] } | { ok: false; problems: string[] };

/** Unix seconds (or milliseconds, past 10^11) or an ISO-8601 text, as an ISO-8601 text. */
function timestampText(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return new Date(value > 1e11 ? value : value * 1000).toISOString();
  if (typeof value === 'string' && /^\d{9,13}$/.test(value.trim())) return timestampText(Number(value));
  return typeof value === 'string' ? value : undefined;
}

function amountOf(value: unknown, inCents: boolean): unknown {
  const number = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : undefined;
  if (number === undefined) return value;
  return inCents ? Math.round(number) / 100 : number;
}

/**
 * The message a body becomes under `mapping`, or what stops it: a required field (the event name) that the body does
 * not hold, or a time that is no time. A message with neither user ID nor anonymous ID gets an anonymous ID of its
 * own (its message ID, else its body's hash): never one shared by several, which would join unrelated people.
 */
export function mapWebhookBody(body: unknown, mapping: WebhookMapping, source: { id: string }, rawBody: string): MappedWebhook {
  const problems: string[] = [];
  const unmatched = new Map<MappingField, string>();
  const read = (field: MappingField): unknown => {
    const raw = mapping[field];
    if (raw === undefined || raw.trim() === '') return undefined;
    const expression = parseExpression(raw);
    if ('problem' in expression) {
      problems.push(`mapping.${field} ${expression.problem}`);
      return undefined;
    }
    if ('literal' in expression) return expression.literal;
    const found = readPath(body, expression.steps);
    if (found === undefined || found === null) unmatched.set(field, expression.path);
    return found;
  };
  const event = text(read('event'));
  if (event === undefined) problems.push(`mapping.event: the body has no event name at ${mapping.event}`);
  const rawTime = read('timestamp');
  const timestamp = rawTime === undefined || rawTime === null ? undefined : timestampText(rawTime);
  if (rawTime !== undefined && rawTime !== null && timestamp === undefined) problems.push(`mapping.timestamp: ${mapping.timestamp} holds ${JSON.stringify(rawTime).slice(0, 60)}, not a time (ISO-8601 text, or Unix seconds)`);
  if (problems.length > 0) return { ok: false, problems };

  const messageId = text(read('messageId'));
  const userId = text(read('userId'));
  const anonymousId = text(read('anonymousId')) ?? (userId === undefined ? `webhook-${source.id}-${messageId ?? sha256Hex(rawBody).slice(0, 32)}` : undefined);
  const products = read('products');
  const properties = Object.fromEntries(
    Object.entries({
      order_id: text(read('orderId')),
      total: mapping.value === undefined ? undefined : amountOf(read('value'), mapping.valueInCents === true),
      currency: text(read('currency')),
      products: Array.isArray(products) ? products : undefined,
    }).filter(([, value]) => value !== undefined),
  );
  const traits = Object.fromEntries(Object.entries({ email: text(read('email')), phone: text(read('phone')) }).filter(([, value]) => value !== undefined));
  const note: SourceNote = { id: source.id, type: 'webhook' };
  const message: WebhookMessage = {
    type: 'track',
    event: event as string,
    ...(messageId === undefined ? {} : { messageId }),
    ...(timestamp === undefined ? {} : { timestamp }),
    ...(userId === undefined ? {} : { userId }),
    ...(anonymousId === undefined ? {} : { anonymousId }),
    properties,
    context: { ...(Object.keys(traits).length === 0 ? {} : { traits }), source: note },
  };
  return { ok: true, message, unmatched: [...unmatched].map(([field, path]) => ({ field, path })) };
}
