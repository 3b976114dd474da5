import { checkJsonValue, checkMessage, correctedTimestampProblem, formatIssue, parseTimestamp, type Issue, type MessageType } from '../../sdk/src/rules/index.js';
import { badRequest, payloadTooLarge } from '../http/http-error';
import { describeIssues } from '../http/issues';
import { batchBody, sentAtField } from '../../contract/messages';
import type { IncomingMessage } from './message-schema';

export type { MessageType };

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

function withBatchContext(message: IncomingMessage, context: Record<string, unknown> | undefined): IncomingMessage {
  return context === undefined ? message : { ...message, context: { ...context, ...message.context } };
}

/**
 * Checks every message with the shared rules, and each timestamp once corrected for the sender's clock, which must
 * stay storable too. A message too large answers 413 at once; otherwise every problem of every message is listed.
 */
function checkMessages(raws: readonly unknown[], name: (index: number) => string, root: (index: number) => string, sentAtMs: number | undefined, receivedAt: Date, maxBytes?: number) {
  const issues: string[] = [];
  const messages: IncomingMessage[] = [];
  raws.forEach((raw, index) => {
    const check = checkMessage(raw, maxBytes);
    if (!check.ok) {
      const tooLarge = check.issues.find((issue) => issue.tooLarge);
      if (tooLarge !== undefined) throw payloadTooLarge(formatIssue(tooLarge, name(index), root(index)));
      issues.push(...check.issues.map((issue) => formatIssue(issue, name(index), root(index))));
      return;
    }
    const { timestamp } = check.message;
    const problem = timestamp === undefined ? undefined : correctedTimestampProblem(parseTimestamp(timestamp) as number, sentAtMs, receivedAt.getTime());
    if (problem !== undefined) {
      issues.push(formatIssue({ path: ['timestamp'], message: problem }, name(index), root(index)));
      return;
    }
    messages.push(check.message);
  });
  return { issues, messages };
}

/** `POST /v1/batch`: every message is checked before any is stored, so a 400 or 413 stores nothing. */
export function parseBatch(body: unknown, receivedAt = new Date()): ParsedMessages {
  const envelope = batchBody.safeParse(body);
  if (!envelope.success) rejectIssues(describeIssues(envelope.error.issues, '', 'body'));
  const { batch, sentAt, context } = envelope.data;
  const contextIssues: Issue[] = [];
  if (context !== undefined) checkJsonValue(context, ['context'], 2, contextIssues);
  if (contextIssues.length > 0) rejectIssues(contextIssues.map((issue) => formatIssue(issue)));

  const sentAtMs = sentAt === undefined ? undefined : parseTimestamp(sentAt);
  const { issues, messages } = checkMessages(batch, (index) => `batch[${index}]`, (index) => `batch[${index}]`, sentAtMs, receivedAt);
  if (issues.length > 0) rejectIssues(issues);
  return { messages: messages.map((message) => withBatchContext(message, context)), sentAt: sentAtMs === undefined ? undefined : new Date(sentAtMs) };
}

/**
 * `POST /v1/track` and friends: one message whose type, when absent, is the endpoint's. `maxBytes`: of the message's
 * JSON, when not the message rules' own limit (a verified webhook's).
 */
export function parseSingle(body: unknown, type: MessageType, receivedAt = new Date(), maxBytes?: number): ParsedMessages {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) rejectIssues(['body must be a JSON object holding one message']);
  const raw = body as Record<string, unknown>;
  if (raw.type !== undefined && raw.type !== type) {
    rejectIssues([`type must be "${type}" (or left out) on /v1/${type}, not ${JSON.stringify(raw.type)}`]);
  }
  const envelope = raw.sentAt === undefined ? undefined : sentAtField.safeParse(raw);
  const sentAtMs = envelope?.success === true && envelope.data.sentAt !== undefined ? parseTimestamp(envelope.data.sentAt) : undefined;
  const { issues, messages } = checkMessages([raw.type === type ? raw : { ...raw, type }], () => '', () => 'message', sentAtMs, receivedAt, maxBytes);
  if (envelope?.success === false) issues.push(...describeIssues(envelope.error.issues, ''));
  if (issues.length > 0) rejectIssues(issues);
  return { messages, sentAt: sentAtMs === undefined ? undefined : new Date(sentAtMs) };
}
