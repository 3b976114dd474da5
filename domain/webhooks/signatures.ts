import { createHmac, timingSafeEqual } from 'node:crypto';

/* Signed webhooks: every comparison is of two 32-byte HMAC-SHA256 digests in constant time (`timingSafeEqual`). */

export type SignatureCheck = { ok: true } | { ok: false; reason: string };

const DIGEST_BYTES = 32;
/** Stripe's libraries refuse a signature whose timestamp is further than this from now (their default tolerance, 300 s). */
export const STRIPE_TOLERANCE_SECONDS = 300;

function hmac(secret: string, ...parts: (string | Buffer)[]): Buffer {
  const mac = createHmac('sha256', secret);
  for (const part of parts) mac.update(part);
  return mac.digest();
}

/** `given` (already decoded) is the expected digest; a digest of another length is no match, without comparing. */
function sameDigest(expected: Buffer, given: Buffer | undefined): boolean {
  return given !== undefined && given.length === DIGEST_BYTES && timingSafeEqual(expected, given);
}

const HEX = /^[0-9a-f]{64}$/i;
const BASE64 = /^[A-Za-z0-9+/]{43}=$/;
const BASE64URL = /^[A-Za-z0-9_-]{43}$/;

/** A digest written as 64 hex digits or 44 base64 characters (standard or URL-safe); anything else is not one. */
function decodeDigest(text: string): Buffer | undefined {
  if (HEX.test(text)) return Buffer.from(text, 'hex');
  if (BASE64.test(text)) return Buffer.from(text, 'base64');
  if (BASE64URL.test(text)) return Buffer.from(text, 'base64url');
  return undefined;
}

/**
 * Shopify: `X-Shopify-Hmac-Sha256` is the base64 HMAC-SHA256 of the raw body, keyed with the app's client secret or,
 * for webhooks made in the shop's notification settings, the key shown there (reference/shopify.md "Delivery").
 */
export function checkShopifySignature(body: Buffer, header: string | undefined, secret: string): SignatureCheck {
  if (header === undefined || header.trim() === '') return { ok: false, reason: 'X-Shopify-Hmac-Sha256 header is missing: Shopify signs every webhook with it' };
  const given = header.trim();
  if (!BASE64.test(given)) return { ok: false, reason: 'X-Shopify-Hmac-Sha256 header is not a base64 HMAC-SHA256 (44 characters)' };
  if (!sameDigest(hmac(secret, body), Buffer.from(given, 'base64'))) {
    return { ok: false, reason: "X-Shopify-Hmac-Sha256 does not match the body signed with this source's secret: paste the key Shopify shows under Settings → Notifications → Webhooks as the source's signing secret" };
  }
  return { ok: true };
}

/** Stripe's `t=<unix seconds>,v1=<hex>[,v1=<hex>…]`: the HMAC of `<t>.<raw body>`, any `v1` may match (several during a secret's roll). */
function checkStripeScheme(body: Buffer, header: string, secret: string, headerName: string, nowMs: number): SignatureCheck {
  const parts = header.split(',').map((part) => part.trim().split('='));
  const timestamp = parts.find(([key]) => key === 't')?.[1] ?? '';
  const signatures = parts.filter(([key]) => key === 'v1').map(([, value]) => value ?? '');
  if (!/^\d{1,12}$/.test(timestamp) || signatures.length === 0) return { ok: false, reason: `${headerName} header must be t=<unix seconds>,v1=<hex signature> (Stripe's scheme)` };
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > STRIPE_TOLERANCE_SECONDS) {
    return { ok: false, reason: `${headerName} timestamp t=${timestamp} is more than ${STRIPE_TOLERANCE_SECONDS} seconds from now: a replayed or delayed request` };
  }
  const expected = hmac(secret, `${timestamp}.`, body);
  const matched = signatures.map((signature) => sameDigest(expected, HEX.test(signature) ? Buffer.from(signature, 'hex') : undefined)).some(Boolean);
  return matched ? { ok: true } : { ok: false, reason: `${headerName} does not match the body signed with this source's secret` };
}

/**
 * A generic signed webhook: the HMAC-SHA256 of the raw body in `headerName`, as hex or base64, optionally prefixed
 * `sha256=` (GitHub's `X-Hub-Signature-256`); or Stripe's `t=…,v1=…` scheme, recognised by its shape.
 */
export function checkWebhookSignature(body: Buffer, headerName: string, header: string | undefined, secret: string, nowMs: number): SignatureCheck {
  if (header === undefined || header.trim() === '') return { ok: false, reason: `${headerName} header is missing: the sender must sign each request with the source's secret` };
  const value = header.trim();
  if (/^t=/.test(value)) return checkStripeScheme(body, value, secret, headerName, nowMs);
  const digest = decodeDigest(value.replace(/^sha256=/i, ''));
  if (digest === undefined) return { ok: false, reason: `${headerName} header must hold the HMAC-SHA256 of the body as 64 hex digits or 44 base64 characters (optionally after sha256=)` };
  return sameDigest(hmac(secret, body), digest) ? { ok: true } : { ok: false, reason: `${headerName} does not match the body signed with this source's secret` };
}
