import type { z } from 'zod';
import { trackRequestSchema, type TrackRequest, type TrackSchemaOptions } from './schema';

export type TrackValidation = { ok: true; request: TrackRequest } | { ok: false; message: string };

/** Like TikTok, reports the first problem only, e.g. "Invalid value for data[0].event_id: not a valid string." */
export function createTrackRequestValidator(options: TrackSchemaOptions): (rawBody: string) => TrackValidation {
  const schema = trackRequestSchema(options);
  return (rawBody) => {
    if (rawBody.trim() === '') return { ok: false, message: 'Request body is empty; expected a JSON object.' };
    let body: unknown;
    try {
      body = JSON.parse(rawBody);
    } catch (error) {
      return { ok: false, message: `Request body is not valid JSON: ${(error as Error).message}` };
    }
    const result = schema.safeParse(body, { reportInput: true });
    if (result.success) return { ok: true, request: result.data };
    return { ok: false, message: describeIssue(result.error.issues[0]) };
  };
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
