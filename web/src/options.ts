/** The `data-*` attributes of the script tag. */
export interface ScriptAttributes {
  key?: string;
  host?: string;
  attributionDays?: string;
  cookieDomain?: string;
  autoPage?: string;
}

export interface ScriptOptions {
  writeKey: string;
  /** Where batches are posted: `<host>/v1/batch`. */
  endpoint: string;
  attributionDays: number;
  cookieDomain?: string;
  autoPage: boolean;
}

/** Signalbox's default attribution window, which the script mirrors unless told otherwise. */
export const DEFAULT_ATTRIBUTION_DAYS = 30;

/**
 * Reads the tag's settings; throws naming the attribute that is wrong. Without `data-host`, the ingest API is the
 * server the script was loaded from (`<host>/js/v1/signalbox.js`, any path prefix included).
 */
export function parseOptions(attributes: ScriptAttributes, scriptSrc: string): ScriptOptions {
  const writeKey = (attributes.key ?? '').trim();
  if (writeKey.startsWith('dk_')) {
    throw new Error('data-key holds a secret server key (dk_), which must never be in a page: revoke it, and use a browser key (pk_)');
  }
  if (!writeKey.startsWith('pk_')) throw new Error('data-key must be a browser key (pk_...): create one with signalbox keys create <workspace> --name site --browser');

  const host = (attributes.host ?? '').trim();
  if (host === '' && scriptSrc === '') throw new Error('data-host is required when the script is not loaded from Signalbox');
  const endpoint = host === '' ? new URL('../../v1/batch', scriptSrc).href : `${host.replace(/\/+$/, '')}/v1/batch`;

  const days = attributes.attributionDays === undefined ? DEFAULT_ATTRIBUTION_DAYS : Number(attributes.attributionDays);
  if (!Number.isInteger(days) || days < 1 || days > 90) throw new Error('data-attribution-days must be a whole number of days from 1 to 90');

  const cookieDomain = attributes.cookieDomain?.trim() || undefined;
  return { writeKey, endpoint, attributionDays: days, cookieDomain, autoPage: attributes.autoPage !== 'false' };
}
