/**
 * An error with the HTTP status and the `{ error, message }` body the client sees; `issues` lists every bad field,
 * `details` carries extra facts (e.g. the permissions TikTok did not grant).
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly issues?: readonly string[],
    readonly headers: Readonly<Record<string, string>> = {},
    readonly details?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string, issues?: readonly string[]) => new HttpError(400, 'invalid_request', message, issues);
export const unauthorized = (message: string) => new HttpError(401, 'unauthorized', message);
export const forbidden = (message: string) => new HttpError(403, 'forbidden', message);
export const notFound = (message: string) => new HttpError(404, 'not_found', message);
export const payloadTooLarge = (message: string) => new HttpError(413, 'payload_too_large', message, undefined, { connection: 'close' });
export const unsupportedMediaType = (message: string) => new HttpError(415, 'unsupported_media_type', message);
