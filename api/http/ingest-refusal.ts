import { HttpError } from './http-error';

/**
 * Why ingest refused a request's key, finer than its HTTP answer: the event debugger (api/console/refusal-words.ts)
 * says what to fix in words for each. The answer itself stays `{ error: 'unauthorized' | 'forbidden', message }`.
 */
export type RefusalReason =
  | 'missing_key'
  | 'malformed_authorization'
  | 'unknown_key'
  | 'origin_not_allowed'
  | 'browser_key_without_origin'
  | 'app_key_from_page'
  | 'secret_key_from_page'
  | 'secret_key_in_url'
  | 'workspace_mismatch';

/** A 401 or 403 of ingest with its reason, which the refusal log records. */
export class IngestRefusal extends HttpError {
  constructor(
    readonly reason: RefusalReason,
    message: string,
  ) {
    const status = reason === 'missing_key' || reason === 'malformed_authorization' || reason === 'unknown_key' ? 401 : 403;
    super(status, status === 401 ? 'unauthorized' : 'forbidden', message);
  }
}
