import type { Workspace } from '../../db/repositories/workspaces';

/** Chromium refuses cookie lifetimes beyond 400 days; the script asks for the same. */
const MAX_AGE_SECONDS = 400 * 86_400;
const DAY_MS = 86_400_000;
/** A click stamped a little after the server's now (the browser's clock) still counts. */
const CLOCK_SKEW_MS = 5 * 60_000;

/** What the tracking script asks for in its same-site mode: `setCookies` of the batch body. */
interface CookieRequest {
  anonymousId?: unknown;
  click?: unknown;
  domain?: unknown;
}

function text(value: unknown, max: number): string | undefined {
  return typeof value === 'string' && value.trim() !== '' && value.length <= max ? value.trim() : undefined;
}

/** The cookie's Domain: the page's own host or a parent of it; anything else would be refused by the browser anyway. */
function cookieDomain(value: unknown, pageHost: string): string | null | undefined {
  if (value === undefined || value === null) return null;
  const domain = text(value, 253)?.toLowerCase().replace(/^\./, '');
  if (domain === undefined || !/^[a-z0-9.-]+$/.test(domain)) return undefined;
  return pageHost === domain || pageHost.endsWith(`.${domain}`) ? domain : undefined;
}

/**
 * `Set-Cookie` lines that keep the visitor's anonymous ID (`sbx_aid`, 400 days) and TikTok click (`sbx_ttclid`, what is
 * left of the workspace's attribution window) as first-party cookies set by a server: Safari caps cookies written
 * by scripts to 7 days, not these, when this server answers on the site's own domain (web/README.md). Empty when the
 * request asks for none or asks for something this page may not have; the batch is stored either way.
 */
export function firstPartyCookies(body: unknown, origin: string | undefined, workspace: Pick<Workspace, 'attributionWindowDays'>, now = Date.now()): string[] {
  const wanted = typeof body === 'object' && body !== null ? ((body as { setCookies?: unknown }).setCookies as CookieRequest | undefined) : undefined;
  if (typeof wanted !== 'object' || wanted === null || origin === undefined || !URL.canParse(origin)) return [];
  const page = new URL(origin);
  const domain = cookieDomain(wanted.domain, page.hostname);
  const anonymousId = text(wanted.anonymousId, 200);
  if (domain === undefined || anonymousId === undefined) return [];

  const attributes = `Path=/; SameSite=Lax${domain === null ? '' : `; Domain=${domain}`}${page.protocol === 'https:' ? '; Secure' : ''}`;
  const cookies = [`sbx_aid=${encodeURIComponent(anonymousId)}; Max-Age=${MAX_AGE_SECONDS}; ${attributes}`];
  const click = typeof wanted.click === 'object' && wanted.click !== null ? (wanted.click as { id?: unknown; at?: unknown }) : undefined;
  const id = text(click?.id, 1024);
  const at = click?.at;
  if (id !== undefined && typeof at === 'number' && Number.isFinite(at) && at <= now + CLOCK_SKEW_MS) {
    const seconds = Math.floor((at + workspace.attributionWindowDays * DAY_MS - now) / 1000);
    if (seconds > 0) cookies.push(`sbx_ttclid=${encodeURIComponent(JSON.stringify({ id, at }))}; Max-Age=${Math.min(seconds, MAX_AGE_SECONDS)}; ${attributes}`);
  }
  return cookies;
}
