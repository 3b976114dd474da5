import { z } from 'zod';
import { badRequest, payloadTooLarge } from '../../http-error';
import { MAX_EVENT_BYTES } from '../../limits';
import { batchSchema, describeIssues, isoTimestamp, messageSchema, type IncomingMessage } from '../../message-schema';

export type MessageType = IncomingMessage['type'];

export interface ParsedMessages {
  messages: IncomingMessage[];
  sentAt?: Date;
}

/** A batch of 10,000 broken messages would otherwise answer with a megabyte of issues. */
const MAX_LISTED_ISSUES = 100;

function rejectIssues(issues: string[]): never {
  const listed = issues.slice(0, MAX_LISTED_ISSUES);
  const more = issues.length - 1;
  const suffix = more === 0 ? '' : ` (and ${more} more problem${more === 1 ? '' : 's'}${issues.length > MAX_LISTED_ISSUES ? `; the first ${MAX_LISTED_ISSUES} are listed` : ''})`;
  throw badRequest(`${issues[0]}${suffix}`, listed);
}

function checkSize(raw: unknown, name: string): void {
  const bytes = Buffer.byteLength(JSON.stringify(raw) ?? '');
  if (bytes > MAX_EVENT_BYTES) throw payloadTooLarge(`${name} is ${bytes} bytes of JSON; the limit is ${MAX_EVENT_BYTES} bytes per message`);
}

function withBatchContext(message: IncomingMessage, context: Record<string, unknown> | undefined): IncomingMessage {
  return context === undefined ? message : { ...message, context: { ...context, ...message.context } };
}

/** `POST /v1/batch`: every message is checked before any is stored, so a 400 or 413 stores nothing. */
export function parseBatch(body: unknown): ParsedMessages {
  const envelope = batchSchema.safeParse(body);
  if (!envelope.success) rejectIssues(describeIssues(envelope.error.issues, '', 'body'));
  const { batch, sentAt, context } = envelope.data;

  batch.forEach((raw, index) => checkSize(raw, `batch[${index}]`));
  const issues: string[] = [];
  const messages: IncomingMessage[] = [];
  batch.forEach((raw, index) => {
    const parsed = messageSchema.safeParse(raw);
    if (parsed.success) messages.push(withBatchContext(parsed.data, context));
    else issues.push(...describeIssues(parsed.error.issues, `batch[${index}]`));
  });
  if (issues.length > 0) rejectIssues(issues);
  return { messages, sentAt: sentAt === undefined ? undefined : new Date(sentAt) };
}

const sentAtSchema = z.object({ sentAt: isoTimestamp.optional() });

/** `POST /v1/track` and friends: one message whose type, when absent, is the endpoint's. */
export function parseSingle(body: unknown, type: MessageType): ParsedMessages {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) rejectIssues(['body must be a JSON object holding one message']);
  const raw = body as Record<string, unknown>;
  if (raw.type !== undefined && raw.type !== type) {
    rejectIssues([`type must be "${type}" (or left out) on /v1/${type}, not ${JSON.stringify(raw.type)}`]);
  }
  checkSize(raw, 'message');
  const parsed = messageSchema.safeParse({ ...raw, type });
  const envelope = sentAtSchema.safeParse(raw);
  const issues = [
    ...(parsed.success ? [] : describeIssues(parsed.error.issues, '', 'message')),
    ...(envelope.success ? [] : describeIssues(envelope.error.issues, '')),
  ];
  if (!parsed.success || !envelope.success) rejectIssues(issues);
  const { sentAt } = envelope.data;
  return { messages: [parsed.data], sentAt: sentAt === undefined ? undefined : new Date(sentAt) };
}
