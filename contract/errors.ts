import { z } from 'zod';
import type { Answer } from './route';

/** Every error leaves the API in this shape (api/error-handler.ts), whatever raised it. */
export const errorBody = z
  .strictObject({
    error: z.string().meta({
      description:
        'A stable code: invalid_request, unauthorized, forbidden, not_found, payload_too_large, unsupported_media_type, rate_limited, storage_unavailable, storage_error, internal_error, or a code of the route (session_required, csrf_token_invalid, ...)',
    }),
    message: z.string().meta({ description: 'What was wrong, naming the field; for people, not for parsing' }),
    issues: z.array(z.string()).optional().meta({ description: 'Every problem of a 400, one per bad field' }),
    details: z.record(z.string(), z.unknown()).optional().meta({ description: 'Facts a client may act on, e.g. the permissions TikTok did not grant' }),
  })
  .meta({ id: 'Error' });

export type ErrorBody = z.infer<typeof errorBody>;

type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 500 | 502 | 503;

const ERROR_ANSWERS: Readonly<Record<ErrorStatus, Answer>> = {
  400: { description: 'The request is not valid: `message` and `issues` name each bad field', schema: errorBody, example: { error: 'invalid_request', message: 'name is required', issues: ['name is required'] } },
  401: { description: 'No valid credentials', schema: errorBody },
  403: { description: 'The credentials may not do this', schema: errorBody },
  404: { description: 'No such resource (or not one the caller may see)', schema: errorBody },
  409: { description: 'The request conflicts with the current state', schema: errorBody },
  413: { description: 'The body, or one message, is larger than allowed', schema: errorBody },
  415: { description: 'The Content-Type or Content-Encoding is not supported', schema: errorBody },
  429: { description: 'Too many requests: wait for the seconds of `Retry-After`', schema: errorBody },
  500: { description: 'Signalbox failed unexpectedly (internal_error): the server log has the details', schema: errorBody },
  502: { description: 'TikTok did not answer as expected', schema: errorBody },
  503: { description: 'Storage is unavailable or too slow: retry after the seconds of `Retry-After`; nothing was stored', schema: errorBody },
};

/** The standard error answers of the given statuses. */
export function errors(...statuses: ErrorStatus[]): Record<number, Answer> {
  return Object.fromEntries(statuses.map((status) => [status, ERROR_ANSWERS[status] as Answer]));
}

/** An error answer saying more than the standard one of its status: when and why this route gives it. */
export function errorAnswer(description: string, example?: ErrorBody): Answer {
  return { description, schema: errorBody, ...(example === undefined ? {} : { example }) };
}
