import type { z } from 'zod';
import { trackRequestSchema, type TrackRequest, type TrackSchemaOptions } from './schema';

export type TrackValidation = { ok: true; request: TrackRequest } | { ok: false; message: string };

/**
 * Checks an `event/track` body against TikTok's documented rules. Like TikTok, reports the first problem only, e.g.
 * "Invalid value for data[0].event_id: not a valid string." The fake TikTok answers 40002 with it; delivery checks
 * each event this way before sending, so that one bad event is not sent to fail a whole request.
 */
export function createTrackRequestValidator(options: TrackSchemaOptions): (body: unknown) => TrackValidation {
  const schema = trackRequestSchema(options);
  return (body) => {
    const result = schema.safeParse(body, { reportInput: true });
    if (result.success) return { ok: true, request: result.data };
    return { ok: false, message: describeIssue(result.error.issues[0]) };
  };
}

/** A raw request body: empty or non-JSON bodies are refused before the schema. */
export function parseTrackBody(rawBody: string): { ok: true; body: unknown } | { ok: false; message: string } {
  if (rawBody.trim() === '') return { ok: false, message: 'Request body is empty; expected a JSON object.' };
  try {
    return { ok: true, body: JSON.parse(rawBody) };
  } catch (error) {
    return { ok: false, message: `Request body is not valid JSON: ${(error as Error).message}` };
  }
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.path.length === 0) return `Invalid request body: ${issue.message}.`;
  const field = formatPath(issue.path);
  if (issue.input === undefined) return `Missing required field: ${field}.`;
  return `Invalid value for ${field}: ${issue.message}.`;
}

/** ['data', 0, 'user', 'email'] → "data[0].user.email" */
function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (text, key) => (typeof key === 'number' ? `${text}[${key}]` : text ? `${text}.${String(key)}` : String(key)),
    '',
  );
}
