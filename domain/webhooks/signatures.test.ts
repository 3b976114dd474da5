import { sign } from '../../devstack/shopify-fake';
import { checkShopifySignature, checkWebhookSignature, STRIPE_TOLERANCE_SECONDS } from './signatures';

const SECRET = 'shpss_0123456789abcdef0123456789abcdef';
const body = '{"id":820982911946154508,"total_price":"403.00"}';
const raw = Buffer.from(body);
const NOW = Date.UTC(2026, 10, 28, 12, 0, 0);

describe("Shopify's signature (base64 HMAC-SHA256 of the raw body)", () => {
  it('accepts the body as signed, and refuses it changed by one byte, under another key, or without the header, saying why', () => {
    const signature = sign.shopify(body, SECRET);
    expect(checkShopifySignature(raw, signature, SECRET)).toEqual({ ok: true });
    expect(checkShopifySignature(Buffer.from(body.replace('403.00', '403.01')), signature, SECRET)).toEqual({ ok: false, reason: expect.stringMatching(/^X-Shopify-Hmac-Sha256 does not match the body signed with this source's secret/) });
    expect(checkShopifySignature(raw, sign.shopify(body, `${SECRET}x`), SECRET).ok).toBe(false);
    expect(checkShopifySignature(raw, undefined, SECRET)).toEqual({ ok: false, reason: 'X-Shopify-Hmac-Sha256 header is missing: Shopify signs every webhook with it' });
  });

  it('refuses a hex digest or a truncated one as not what Shopify sends (no comparison of another length)', () => {
    expect(checkShopifySignature(raw, sign.hex(body, SECRET), SECRET)).toEqual({ ok: false, reason: 'X-Shopify-Hmac-Sha256 header is not a base64 HMAC-SHA256 (44 characters)' });
    expect(checkShopifySignature(raw, sign.shopify(body, SECRET).slice(0, 40), SECRET).ok).toBe(false);
  });
});

describe('a generic webhook signature', () => {
  const check = (header: string | undefined, at = NOW) => checkWebhookSignature(raw, 'X-Signature', header, SECRET, at);

  it.each([
    ['hex', sign.hex(body, SECRET)],
    ['upper-case hex', sign.hex(body, SECRET).toUpperCase()],
    ['base64', sign.shopify(body, SECRET)],
    ['base64url', Buffer.from(sign.hex(body, SECRET), 'hex').toString('base64url')],
    ["GitHub's sha256=<hex>", `sha256=${sign.hex(body, SECRET)}`],
  ])('accepts the HMAC-SHA256 of the body as %s', (_name, header) => {
    expect(check(header)).toEqual({ ok: true });
  });

  it('refuses another body, a missing header and text that is no digest, naming the header', () => {
    expect(check(sign.hex('{}', SECRET))).toEqual({ ok: false, reason: "X-Signature does not match the body signed with this source's secret" });
    expect(check(undefined)).toEqual({ ok: false, reason: "X-Signature header is missing: the sender must sign each request with the source's secret" });
    expect(check('not-a-signature')).toEqual({ ok: false, reason: 'X-Signature header must hold the HMAC-SHA256 of the body as 64 hex digits or 44 base64 characters (optionally after sha256=)' });
  });

  it("accepts Stripe's t=…,v1=… within five minutes, any of several v1 (a secret's roll), and refuses an old one as a replay", () => {
    const seconds = Math.floor(NOW / 1000);
    expect(check(sign.stripe(body, SECRET, seconds))).toEqual({ ok: true });
    expect(check(`${sign.stripe(body, 'whsec_old_secret_000000', seconds)},v1=${sign.stripe(body, SECRET, seconds).split('v1=')[1]}`)).toEqual({ ok: true });
    expect(check(sign.stripe(body, SECRET, seconds - STRIPE_TOLERANCE_SECONDS - 1))).toEqual({ ok: false, reason: expect.stringMatching(/^X-Signature timestamp t=\d+ is more than 300 seconds from now/) });
    // The timestamp is signed too: moving it forward breaks the signature.
    const moved = sign.stripe(body, SECRET, seconds - 10).replace(/^t=\d+/, `t=${seconds}`);
    expect(check(moved)).toEqual({ ok: false, reason: "X-Signature does not match the body signed with this source's secret" });
    expect(check('t=abc,v1=00')).toEqual({ ok: false, reason: "X-Signature header must be t=<unix seconds>,v1=<hex signature> (Stripe's scheme)" });
  });
});
