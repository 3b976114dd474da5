import { z } from 'zod';
import { MAX_EVENTS_PER_BATCH } from './limits';

const json = z.record(z.string(), z.unknown(), { error: 'must be an object' });
const identifier = z
  .union([z.string().max(1024, 'must be at most 1024 characters'), z.number().finite()])
  .transform(String)
  .nullish();
export const isoTimestamp = z.iso.datetime({ offset: true, error: 'must be an ISO-8601 timestamp with a time zone, e.g. 2026-01-31T12:00:00Z' });

const common = {
  messageId: z.string().min(1, 'must not be empty').max(256, 'must be at most 256 characters').optional(),
  timestamp: isoTimestamp.optional(),
  userId: identifier,
  anonymousId: identifier,
  context: json.optional(),
  properties: json.optional(),
  traits: json.optional(),
  integrations: json.optional(),
};

const eventName = z.string({ error: 'is required for track messages' }).trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters');

export const messageSchema = z
  .discriminatedUnion(
    'type',
    [
      z.object({ ...common, type: z.literal('track'), event: eventName }),
      z.object({ ...common, type: z.literal('identify') }),
      z.object({ ...common, type: z.literal('page'), name: z.string().max(200).nullish(), category: z.string().nullish() }),
      z.object({ ...common, type: z.literal('screen'), name: z.string().max(200).nullish() }),
      z.object({ ...common, type: z.literal('group'), groupId: z.union([z.string().min(1), z.number()], { error: 'is required for group messages' }).transform(String) }),
      z.object({ ...common, type: z.literal('alias'), previousId: z.union([z.string().min(1), z.number()], { error: 'is required for alias messages' }).transform(String) }),
    ],
    { error: 'must be one of track, identify, page, screen, group, alias' },
  )
  .refine((m) => (m.userId ?? '') !== '' || (m.anonymousId ?? '') !== '', {
    message: 'needs a userId or an anonymousId',
  });

export type IncomingMessage = z.infer<typeof messageSchema>;

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
