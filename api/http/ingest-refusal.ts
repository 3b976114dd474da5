import { HttpError } from './http-error';

/**
 * Why ingest refused a request's key, finer than its HTTP answer, or why a signed Shopify delivery was acknowledged
 * (200) and not stored: the event debugger (api/console/refusal-words.ts) says what to fix in words for each. A key's
 * refusal is answered `{ error: 'unauthorized' | 'forbidden', message }`.
 */
export type RefusalReason = KeyRefusalReason | UnstoredDeliveryReason;

/** A signed Shopify delivery with no body, or one that is not a JSON object; one whose body is not the resource of its topic; one whose message breaks a message rule. */
export type UnstoredDeliveryReason = 'shopify_unreadable' | 'shopify_not_its_topic' | 'shopify_unstorable';

type KeyRefusalReason =
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
    readonly reason: KeyRefusalReason,
    message: string,
  ) {
    const status = reason === 'missing_key' || reason === 'malformed_authorization' || reason === 'unknown_key' ? 401 : 403;
    super(status, status === 401 ? 'unauthorized' : 'forbidden', message);
  }
}
