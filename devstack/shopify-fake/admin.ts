import { randomBytes } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signShopifyQuery } from '../../domain/shopify/oauth-query';
import { runMutation, type FakeScriptTag, type FakeShop, type FakeSubscription } from './admin-graphql';
import { postShopifyDelivery, shopifyDelivery, shopifyFixture } from './deliveries';
import { readBody } from './storefront';

/** The dev stack's Signalbox app in the fake Shopify (set SHOPIFY_API_KEY / SHOPIFY_API_SECRET to these against it). */
export const FAKE_SHOPIFY_API_KEY = 'signalbox-dev-shopify-client-id';
export const FAKE_SHOPIFY_API_SECRET = 'signalbox-dev-shopify-client-secret';
/** The dev stack's shop. */
export const FAKE_SHOP_DOMAIN = 'fern-shop.myshopify.com';

export interface FakeShopifyAdmin {
  url: string;
  /** SHOPIFY_SHOP_URL against this fake: every shop lives under `/shops/<domain>`. */
  shopUrl: string;
  subscriptions(shop: string): FakeSubscription[];
  scriptTags(shop: string): FakeScriptTag[];
  /** The `<script>` tags the shop's storefront renders, as Shopify adds its app's script tags (with `?shop=`). */
  storefrontScripts(shop: string): string;
  /** Posts `body` to every subscription of `topic` in the shop, signed with the app's secret, as Shopify delivers. */
  deliver(shop: string, topic: string, body: unknown): Promise<{ uri: string; status: number; body: Record<string, unknown> }[]>;
  /** The owner removes the app: its tokens stop working, its webhooks and script tags go, and `app/uninstalled` is posted. */
  uninstall(shop: string): Promise<{ uri: string; status: number }[]>;
  /**
   * Posts one of the app's privacy topics for the shop (`shop_domain` added to `body`) to the app's compliance URL,
   * signed with the app's secret, as Shopify does: one URL for the app, from its settings, whether or not the shop still
   * has the app (shop/redact comes 48 hours after uninstalling).
   */
  sendCompliance(shop: string, topic: 'customers/data_request' | 'customers/redact' | 'shop/redact', body?: Record<string, unknown>): Promise<{ status: number; body: Record<string, unknown> }>;
  close(): Promise<void>;
}

const send = (response: ServerResponse, status: number, body: unknown, type = 'application/json') => {
  response.writeHead(status, { 'content-type': type });
  response.end(typeof body === 'string' ? body : JSON.stringify(body));
};

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Form or JSON, as Shopify's token endpoint takes either. */
function fields(body: string, contentType: string | undefined): Record<string, string> {
  if ((contentType ?? '').includes('json')) {
    try {
      return JSON.parse(body) as Record<string, string>;
    } catch {
      return {};
    }
  }
  return Object.fromEntries(new URLSearchParams(body));
}

/**
 * A Shopify for Connect Shopify (docs/reference/shopify-app.md), one app installed in any number of shops, each under
 * `/shops/<domain>`: the app's approval page (`GET …/admin/oauth/authorize` shows it, its "Install app" button posts
 * back and is redirected to `redirect_uri` with `code`, `hmac`, `host`, `shop`, `state` and `timestamp`), the code
 * exchange (`POST …/admin/oauth/access_token`, single use), and the GraphQL Admin API's webhook subscriptions and
 * script tags behind `X-Shopify-Access-Token`. `GET /_fake/shops/<domain>` lists what the app made there; `POST
 * /_fake/shops/<domain>/orders` places the example order (body: `{ ttclid? }`) and delivers its orders/create, `POST
 * /_fake/shops/<domain>/uninstall` removes the app, and `POST /_fake/shops/<domain>/shop-redact` sends the shop/redact
 * Shopify sends 48 hours later (to `complianceUri`, the app's compliance webhook URL), so that `npm start` can walk the
 * whole flow.
 */
export async function startFakeShopifyAdmin(options: { apiKey?: string; secret?: string; port?: number; complianceUri?: string } = {}): Promise<FakeShopifyAdmin> {
  const apiKey = options.apiKey ?? FAKE_SHOPIFY_API_KEY;
  const secret = options.secret ?? FAKE_SHOPIFY_API_SECRET;
  const shops = new Map<string, FakeShop>();
  const codes = new Map<string, { shop: string; scopes: string[] }>();
  const tokens = new Map<string, string>();
  const shopOf = (domain: string): FakeShop => {
    const found = shops.get(domain) ?? { domain, scopes: [], subscriptions: [], scriptTags: [] };
    shops.set(domain, found);
    return found;
  };

  function approvalPage(shop: string, query: URLSearchParams): string {
    const hidden = ['client_id', 'scope', 'redirect_uri', 'state'].map((name) => `<input type="hidden" name="${name}" value="${escape(query.get(name) ?? '')}">`).join('');
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Install Signalbox – ${escape(shop)}</title></head><body>
<h1>Install Signalbox in ${escape(shop)}</h1><p>Signalbox asks to: ${escape((query.get('scope') ?? '').split(',').join(', '))}.</p>
<form method="post" action="authorize">${hidden}<button type="submit">Install app</button></form></body></html>`;
  }

  function approve(shop: string, form: Record<string, string>, response: ServerResponse) {
    if (form.client_id !== apiKey) return send(response, 400, '<h1>Oauth error invalid_request: The client_id is not valid</h1>', 'text/html');
    if (!URL.canParse(form.redirect_uri ?? '')) return send(response, 400, '<h1>Oauth error invalid_request: The redirect_uri is missing or not a URL</h1>', 'text/html');
    const code = randomBytes(16).toString('hex');
    codes.set(code, { shop, scopes: (form.scope ?? '').split(',').filter((s) => s !== '') });
    const params: [string, string][] = [
      ['code', code],
      ['host', Buffer.from(`admin.shopify.com/store/${shop.replace('.myshopify.com', '')}`).toString('base64url')],
      ['shop', shop],
      ['state', form.state ?? ''],
      ['timestamp', String(Math.floor(Date.now() / 1000))],
    ];
    const target = new URL(form.redirect_uri as string);
    for (const [name, value] of params) target.searchParams.set(name, value);
    target.searchParams.set('hmac', signShopifyQuery(params, secret));
    response.writeHead(302, { location: target.toString() });
    response.end();
  }

  function exchange(shop: string, form: Record<string, string>, response: ServerResponse) {
    if (form.client_id !== apiKey || form.client_secret !== secret) return send(response, 400, { error: 'invalid_client', error_description: 'Client credentials are invalid' });
    const grant = codes.get(form.code ?? '');
    if (grant === undefined || grant.shop !== shop) return send(response, 400, { error: 'invalid_request', error_description: 'The authorization code was not found or was already used' });
    codes.delete(form.code as string);
    const token = `shpat_${randomBytes(16).toString('hex')}`;
    tokens.set(token, shop);
    shopOf(shop).scopes = grant.scopes;
    return send(response, 200, { access_token: token, scope: grant.scopes.join(',') });
  }

  const control = async (shop: string, action: string, body: string): Promise<unknown> => {
    if (action === 'uninstall') return { told: await fake.uninstall(shop) };
    if (action === 'shop-redact') return { told: await fake.sendCompliance(shop, 'shop/redact') };
    const order = shopifyFixture('orders/create');
    const now = new Date().toISOString();
    const { ttclid } = fields(body, 'application/json');
    Object.assign(order, { created_at: now, processed_at: now, updated_at: now, ...(ttclid ? { note_attributes: [{ name: 'ttclid', value: ttclid }] } : {}) });
    return { delivered: await fake.deliver(shop, 'orders/create', order) };
  };

  const server: Server = createServer((request, response) => {
    void readBody(request).then(async (body) => {
      const url = new URL(request.url ?? '/', 'http://fake');
      const controlled = /^\/_fake\/shops\/([^/]+)\/(orders|uninstall|shop-redact)$/.exec(url.pathname);
      if (controlled !== null && request.method === 'POST') return send(response, 200, await control(decodeURIComponent(controlled[1] as string), controlled[2] as string, body));
      const inspect = /^\/_fake\/shops\/([^/]+)$/.exec(url.pathname);
      if (inspect !== null && request.method === 'GET') {
        const shop = shops.get(decodeURIComponent(inspect[1] as string));
        return send(response, 200, { subscriptions: shop?.subscriptions ?? [], scriptTags: shop?.scriptTags ?? [] });
      }
      const match = /^\/shops\/([a-z0-9][a-z0-9-]*\.myshopify\.com)(\/admin\/.*)$/.exec(url.pathname);
      if (match === null) return send(response, 404, { errors: 'Not Found' });
      const [, shop, path] = match as unknown as [string, string, string];
      if (path === '/admin/oauth/authorize' && request.method === 'GET') return send(response, 200, approvalPage(shop, url.searchParams), 'text/html; charset=utf-8');
      if (path === '/admin/oauth/authorize' && request.method === 'POST') return approve(shop, fields(body, request.headers['content-type']), response);
      if (path === '/admin/oauth/access_token' && request.method === 'POST') return exchange(shop, fields(body, request.headers['content-type']), response);
      if (/^\/admin\/api\/[0-9]{4}-[0-9]{2}\/graphql\.json$/.test(path) && request.method === 'POST') {
        if (tokens.get(String(request.headers['x-shopify-access-token'])) !== shop) return send(response, 401, { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' });
        const { query = '', variables = {} } = fields(body, 'application/json') as unknown as { query?: string; variables?: Record<string, unknown> };
        const answer = runMutation(shopOf(shop), query, variables);
        return send(response, answer.status, answer.body);
      }
      return send(response, 404, { errors: 'Not Found' });
    }).catch((error: unknown) => send(response, 500, { errors: (error as Error).message }));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const deliver = async (shop: string, topic: string, body: unknown) =>
    Promise.all(
      (shops.get(shop)?.subscriptions ?? [])
        .filter((s) => s.topic === topic)
        .map(async (s) => ({ uri: s.uri, ...(await postShopifyDelivery(s.uri, shopifyDelivery(topic, body, secret, { shopDomain: shop }))) })),
    );

  const fake: FakeShopifyAdmin = {
    url,
    shopUrl: `${url}/shops/{shop}`,
    subscriptions: (shop) => [...(shops.get(shop)?.subscriptions ?? [])],
    scriptTags: (shop) => [...(shops.get(shop)?.scriptTags ?? [])],
    storefrontScripts: (shop) => (shops.get(shop)?.scriptTags ?? []).map((t) => `<script async src="${escape(`${t.src}${t.src.includes('?') ? '&' : '?'}shop=${shop}`)}"></script>`).join(''),
    deliver,
    async uninstall(shop) {
      for (const [token, owner] of tokens) if (owner === shop) tokens.delete(token);
      const told = (shops.get(shop)?.subscriptions ?? []).filter((s) => s.topic === 'app/uninstalled');
      shops.delete(shop);
      const body = { id: 548380009, name: 'Fern shop', email: 'owner@fern-shop.example', domain: shop, myshopify_domain: shop };
      return Promise.all(told.map(async (s) => ({ uri: s.uri, status: (await postShopifyDelivery(s.uri, shopifyDelivery('app/uninstalled', body, secret, { shopDomain: shop }))).status })));
    },
    async sendCompliance(shop, topic, body = {}) {
      if (options.complianceUri === undefined) throw new Error('the fake Shopify was started without complianceUri, the app\'s compliance webhook URL');
      const request = { shop_id: 548380009, shop_domain: shop, ...body };
      return postShopifyDelivery(options.complianceUri, shopifyDelivery(topic, request, secret, { shopDomain: shop }));
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  return fake;
}
