import { z } from 'zod';
import { timestampProblem, type ValidMessage } from '../../sdk/src/rules/index.js';
import { MAX_EVENTS_PER_BATCH } from '../http/limits';

/**
 * One message as the ingest API accepted it. Messages are checked by the rules the client library shares
 * (`sdk/src/rules`, `checkMessage`); zod checks only the envelope around them.
 */
export type IncomingMessage = ValidMessage;

const json = z.record(z.string(), z.unknown(), { error: 'must be an object' });

/** An ISO-8601 timestamp with a zone, in years 0001–9999: the message rules' own check. */
export const isoTimestamp = z.string({ error: 'must be an ISO-8601 timestamp with a time zone, e.g. 2026-01-31T12:00:00Z' }).superRefine((value, context) => {
  const problem = timestampProblem(value);
  if (problem !== undefined) context.addIssue({ code: 'custom', message: problem, input: value });
});

export const batchSchema = z.object({
  batch: z
    .array(z.unknown(), { error: 'is required: an array of messages' })
    .min(1, 'must hold at least one message')
    .max(MAX_EVENTS_PER_BATCH, `must hold at most ${MAX_EVENTS_PER_BATCH} messages`),
  sentAt: isoTimestamp.optional(),
  context: json.optional(),
}, { error: 'must be a JSON object with a batch array' });

/**
 * `batch[3].event is required for track messages`: field paths after `prefix`; an issue about the whole value is
 * named `root` (default: the prefix), and each unknown field of a strict object gets its own line.
 */
export function describeIssues(issues: readonly z.core.$ZodIssue[], prefix: string, root = prefix): string[] {
  const pathText = (path: readonly PropertyKey[]) => {
    const text = path.reduce<string>((acc, part) => (typeof part === 'number' ? `${acc}[${part}]` : acc === '' ? String(part) : `${acc}.${String(part)}`), prefix);
    return text === '' ? root : text;
  };
  return issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys' ? issue.keys.map((key) => `${pathText([...issue.path, key])} is not a known field`) : [`${pathText(issue.path)} ${issue.message}`],
  );
}
