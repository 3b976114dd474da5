import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LosslessNumber } from 'lossless-json';
import { shopifyFixture } from './deliveries';

/** A product of the fake shop: the order fixture's line items, so orders read as Shopify's example ones do. */
export interface StorefrontProduct {
  variantId: string;
  productId: string;
  sku: string;
  title: string;
  vendor: string;
  /** In the shop's currency's minor unit, as the Ajax API gives prices. */
  priceCents: number;
}

export const STOREFRONT_PRODUCTS: readonly StorefrontProduct[] = [
  { variantId: '642667041472713922', productId: '788032119674292922', sku: 'SKU2006-001', title: 'Aviator sunglasses', vendor: 'Acme', priceCents: 9000 },
  { variantId: '757650484644203962', productId: '788032119674292923', sku: 'SKU2006-020', title: 'Mid-century lounger', vendor: 'Acme', priceCents: 15400 },
];

interface CartLine {
  product: StorefrontProduct;
  quantity: number;
}

export interface StorefrontCart {
  token: string;
  attributes: Record<string, string>;
  lines: CartLine[];
}

/** One request the storefront received, as it came: what the tracking script really did. */
export interface StorefrontRequest {
  method: string;
  path: string;
  contentType?: string;
  body: string;
}

export interface FakeStorefront {
  origin: string;
  requests: StorefrontRequest[];
  cart(token: string): StorefrontCart | undefined;
  /** The orders/create body Shopify would post for this cart's checkout, at `now` (its attributes become `note_attributes`). */
  orderOf(token: string, buyer: { email: string; phone?: string; ip: string; userAgent: string }, now?: Date): Record<string, unknown>;
  close(): Promise<void>;
}

const SHOP = 'fern-shop.myshopify.com';

/** A request's body as text (the fake's admin and storefront both read whole bodies). */
export function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

const cookie = (request: IncomingMessage, name: string) =>
  (request.headers.cookie ?? '')
    .split(';')
    .map((part) => part.trim().split('='))
    .find(([key]) => key === name)?.[1];

/** The cart as the Ajax API's `/cart.js` answers it (the fields a theme, and the tag, read). */
function cartJson(cart: StorefrontCart | undefined) {
  const lines = cart?.lines ?? [];
  return {
    token: cart?.token ?? null,
    note: null,
    attributes: cart?.attributes ?? {},
    total_price: lines.reduce((sum, line) => sum + line.product.priceCents * line.quantity, 0),
    item_count: lines.reduce((sum, line) => sum + line.quantity, 0),
    currency: 'USD',
    items: lines.map(({ product, quantity }) => ({
      id: Number(product.variantId),
      key: `${product.variantId}:${product.sku.toLowerCase()}`,
      quantity,
      variant_id: Number(product.variantId),
      product_id: Number(product.productId),
      sku: product.sku,
      title: product.title,
      vendor: product.vendor,
      price: product.priceCents,
      line_price: product.priceCents * quantity,
    })),
  };
}

/** `-05:00`-style local times, as Shopify writes them, for a shop in New York's winter. */
const shopTime = (at: Date) => `${new Date(at.getTime() - 5 * 3_600_000).toISOString().slice(0, 19)}-05:00`;

/**
 * A Shopify storefront as the tracking script meets it: theme pages that set `window.Shopify.routes.root` and carry
 * the shop's `<head>` (the tag), and the Ajax cart API (`GET /cart.js`, `POST /cart/add.js`, `POST /cart/update.js`
 * with `{ attributes }`, an empty value removing one), the cart named by the `cart` cookie it sets. Every request is
 * kept as it arrived. `orderOf` is the orders/create body Shopify would post once that cart is bought.
 */
export async function startFakeStorefront(options: { head: () => string; port?: number }): Promise<FakeStorefront> {
  const carts = new Map<string, StorefrontCart>();
  const requests: StorefrontRequest[] = [];

  function cartFor(request: IncomingMessage, setCookie: (value: string) => void): StorefrontCart {
    const existing = carts.get(cookie(request, 'cart') ?? '');
    if (existing !== undefined) return existing;
    const cart: StorefrontCart = { token: `Z2NwLXVzLWVhc3Qx${randomBytes(18).toString('base64url')}`, attributes: {}, lines: [] };
    carts.set(cart.token, cart);
    setCookie(`cart=${cart.token}; Path=/; SameSite=Lax`);
    return cart;
  }

  const server: Server = createServer((request, response) => {
    void readBody(request).then((body) => {
      const path = (request.url ?? '/').split('?')[0] as string;
      requests.push({ method: request.method ?? 'GET', path: request.url ?? '/', contentType: request.headers['content-type'], body });
      const json = (status: number, value: unknown, headers: Record<string, string> = {}) => {
        response.writeHead(status, { 'content-type': 'application/json', ...headers });
        response.end(JSON.stringify(value));
      };
      const cookies: Record<string, string> = {};
      const setCookie = (value: string) => (cookies['set-cookie'] = value);
      if (request.method === 'GET' && path === '/cart.js') return json(200, cartJson(carts.get(cookie(request, 'cart') ?? '')));
      if (request.method === 'POST' && (path === '/cart/update.js' || path === '/cart/add.js')) {
        let parsed: { attributes?: Record<string, unknown>; id?: unknown; quantity?: unknown };
        try {
          parsed = JSON.parse(body) as typeof parsed;
        } catch {
          return json(400, { status: 400, message: 'Bad Request', description: 'body is not JSON' });
        }
        const cart = cartFor(request, setCookie);
        if (path === '/cart/add.js') {
          const product = STOREFRONT_PRODUCTS.find((p) => p.variantId === String(parsed.id));
          if (product === undefined) return json(404, { status: 404, message: 'Cart Error', description: 'Cannot find variant' }, cookies);
          const line = cart.lines.find((l) => l.product === product);
          if (line === undefined) cart.lines.push({ product, quantity: Number(parsed.quantity ?? 1) });
          else line.quantity += Number(parsed.quantity ?? 1);
          return json(200, cartJson(cart).items.find((item) => String(item.variant_id) === product.variantId), cookies);
        }
        for (const [name, value] of Object.entries(parsed.attributes ?? {})) {
          if (value === '' || value === null) delete cart.attributes[name];
          else cart.attributes[name] = String(value);
        }
        return json(200, cartJson(cart), cookies);
      }
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(
        `<!doctype html><html><head><title>Fern shop</title><script>window.Shopify = window.Shopify || {}; Shopify.shop = '${SHOP}'; Shopify.routes = { root: '/' };</script>${options.head()}</head>` +
          `<body><h1>Fern shop</h1>${STOREFRONT_PRODUCTS.map((p) => `<button class="add" data-variant="${p.variantId}" onclick="fetch(Shopify.routes.root + 'cart/add.js', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: this.dataset.variant, quantity: 1 }) }).then(() => { document.getElementById('added').textContent = 'Added: ${p.title}'; })">Add ${p.title}</button>`).join('')}<p id="added"></p></body></html>`,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    requests,
    cart: (token) => carts.get(token),
    orderOf(token, buyer, now = new Date()) {
      const cart = carts.get(token);
      if (cart === undefined) throw new Error(`the storefront has no cart ${token}`);
      const order = shopifyFixture('orders/create');
      const [template] = order.line_items as Record<string, unknown>[];
      const id = new LosslessNumber(String(5_000_000_000_000 + (now.getTime() % 1_000_000_000)));
      const subtotal = cart.lines.reduce((sum, line) => sum + line.product.priceCents * line.quantity, 0) / 100;
      const money = (amount: number) => amount.toFixed(2);
      Object.assign(order, {
        id,
        admin_graphql_api_id: `gid://shopify/Order/${id.toString()}`,
        name: `#${1000 + (now.getTime() % 9000)}`,
        cart_token: cart.token,
        email: buyer.email,
        contact_email: buyer.email,
        phone: buyer.phone ?? null,
        browser_ip: buyer.ip,
        client_details: { accept_language: 'en-US', browser_height: null, browser_ip: buyer.ip, browser_width: null, session_hash: null, user_agent: buyer.userAgent },
        note_attributes: Object.entries(cart.attributes).map(([name, value]) => ({ name, value })),
        created_at: shopTime(now),
        processed_at: shopTime(now),
        updated_at: shopTime(now),
        subtotal_price: money(subtotal),
        total_line_items_price: money(subtotal),
        current_subtotal_price: money(subtotal),
        total_price: money(subtotal + 5),
        current_total_price: money(subtotal + 5),
        line_items: cart.lines.map(({ product, quantity }, index) => ({
          ...template,
          id: new LosslessNumber(String(1_000_000 + index)),
          product_id: new LosslessNumber(product.productId),
          variant_id: new LosslessNumber(product.variantId),
          sku: product.sku,
          title: product.title,
          name: product.title,
          vendor: product.vendor,
          price: money(product.priceCents / 100),
          quantity: new LosslessNumber(String(quantity)),
        })),
      });
      return order;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
