/** The `data-*` attributes of the script tag. */
export interface ScriptAttributes {
  key?: string;
  host?: string;
  attributionDays?: string;
  cookieDomain?: string;
  autoPage?: string;
  serverCookies?: string;
}

export interface ScriptOptions {
  writeKey: string;
  /** Where batches are posted: `<host>/v1/batch`. */
  endpoint: string;
  /** The workspace's settings for this key: `<host>/js/v1/config/<key>`. */
  configUrl: string;
  /** `data-attribution-days`; absent: the workspace's attribution window. */
  attributionDays?: number;
  cookieDomain?: string;
  /** A page view when the script loads. */
  autoPage: boolean;
  /** A page view on every `history` navigation too (single-page apps). */
  historyPages: boolean;
  /**
   * Whether the ingest API sets the anonymous ID and click cookies (`Set-Cookie`), which Safari keeps as long as any
   * other first-party cookie; only possible when it answers on the site's own domain. Absent: when it does.
   */
  serverCookies?: boolean;
}

function flag(name: string, value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'true' || value === 'false') return value === 'true';
  throw new Error(`${name} must be true or false`);
}

/**
 * Reads the tag's settings; throws naming the attribute that is wrong. Without `data-host`, the ingest API is the
 * server the script was loaded from (`<host>/js/v1/signalbox.js`, any path prefix included).
 */
export function parseOptions(attributes: ScriptAttributes, scriptSrc: string): ScriptOptions {
  const writeKey = (attributes.key ?? '').trim();
  if (writeKey.startsWith('dk_')) {
    throw new Error('data-key holds a secret server key (dk_), which must never be in a page: revoke it, and use a browser key (pk_)');
  }
  if (!/^pk_[\w-]+$/.test(writeKey)) throw new Error('data-key must be a browser key (pk_...): create one with signalbox keys create <workspace> --name site --browser');

  const host = (attributes.host ?? '').trim().replace(/\/+$/, '');
  if (host === '' && scriptSrc === '') throw new Error('data-host is required when the script is not loaded from Signalbox');
  const at = (path: string) => (host === '' ? new URL(`../../${path}`, scriptSrc).href : `${host}/${path}`);

  let attributionDays: number | undefined;
  if (attributes.attributionDays !== undefined) {
    attributionDays = Number(attributes.attributionDays);
    if (!Number.isInteger(attributionDays) || attributionDays < 1 || attributionDays > 90) throw new Error('data-attribution-days must be a whole number of days from 1 to 90');
  }
  const autoPage = attributes.autoPage ?? 'true';
  if (!['true', 'false', 'history'].includes(autoPage)) throw new Error('data-auto-page must be true, false or history');

  return {
    writeKey,
    endpoint: at('v1/batch'),
    configUrl: at(`js/v1/config/${writeKey}`),
    attributionDays,
    cookieDomain: attributes.cookieDomain?.trim().replace(/^\./, '') || undefined,
    autoPage: autoPage !== 'false',
    historyPages: autoPage === 'history',
    serverCookies: flag('data-server-cookies', attributes.serverCookies),
  };
}

/** The site's own domain answers: the same host as the page, or a host inside `data-cookie-domain`. */
export function answersOnSiteDomain(endpoint: string, pageHost: string, cookieDomain: string | undefined): boolean {
  const host = new URL(endpoint).hostname;
  return host === pageHost || (cookieDomain !== undefined && (host === cookieDomain || host.endsWith(`.${cookieDomain}`)));
}
