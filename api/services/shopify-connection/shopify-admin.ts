import { webhookTargetProblem, type WebhookTargetRule } from '../../../notify/webhook-target';
import { ShopifyConnectionError } from './errors';

/** The Admin API version Signalbox speaks (docs/reference/shopify-app.md): its webhooks come in this version's shape. */
export const SHOPIFY_API_VERSION = '2025-10';

const TIMEOUT_MS = 10_000;

export interface ShopifyAdminOptions {
  /** `https://{shop}`, or the fake's address with `{shop}` in it (SHOPIFY_SHOP_URL). */
  shopUrl: string;
  /** Whether a shop's address may be internal (ALERT_WEBHOOK_INTERNAL_ADDRESSES), checked before every call. */
  targets: WebhookTargetRule;
}

interface UserError {
  field?: string[] | null;
  message: string;
}

const GRAPHQL = {
  webhookCreate: `mutation webhookSubscriptionCreate($topic: WebhookSubscriptionTopic!, $webhookSubscription: WebhookSubscriptionInput!) {
  webhookSubscriptionCreate(topic: $topic, webhookSubscription: $webhookSubscription) { webhookSubscription { id topic uri } userErrors { field message } }
}`,
  webhookDelete: `mutation webhookSubscriptionDelete($id: ID!) {
  webhookSubscriptionDelete(id: $id) { deletedWebhookSubscriptionId userErrors { field message } }
}`,
  scriptTagCreate: `mutation scriptTagCreate($input: ScriptTagInput!) {
  scriptTagCreate(input: $input) { scriptTag { id src displayScope } userErrors { field message } }
}`,
  scriptTagDelete: `mutation scriptTagDelete($id: ID!) {
  scriptTagDelete(id: $id) { deletedScriptTagId userErrors { field message } }
}`,
};

/** `orders/create` → `ORDERS_CREATE`, the GraphQL Admin API's name of a topic. */
export const topicEnum = (topic: string) => topic.toUpperCase().replace('/', '_');

/** A refused delete of something no longer there: what was to be removed is gone already. */
const alreadyGone = (errors: readonly UserError[]) => errors.every((e) => /does not exist|not found|could not find/i.test(e.message));

/**
 * The calls Connect Shopify makes to a shop: the code exchange and the GraphQL Admin API's webhook subscriptions and
 * script tags, each answered as Shopify's envelope says (`data.<mutation>.userErrors`, top-level `errors`). Failures
 * throw ShopifyConnectionError: `token_invalid` (401/403: the app was uninstalled or the token revoked),
 * `shopify_rejected` (Shopify refused, its words kept), `shopify_unavailable` (network, 5xx, throttled).
 */
export function createShopifyAdmin(options: ShopifyAdminOptions) {
  const base = (shop: string) => options.shopUrl.replace('{shop}', shop);

  async function post(shop: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: Record<string, unknown> }> {
    const url = `${base(shop)}${path}`;
    const refused = await webhookTargetProblem(url, options.targets);
    if (refused !== undefined) throw new ShopifyConnectionError('shop_invalid', `shop: its address ${refused}`);
    let response: Response;
    try {
      response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json', ...headers }, body: JSON.stringify(body), signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'error' });
    } catch (error) {
      throw new ShopifyConnectionError('shopify_unavailable', `Shopify did not answer (${(error as Error).message}); try again shortly`);
    }
    const text = await response.text();
    let json: Record<string, unknown> = {};
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed === 'object' && parsed !== null) json = parsed as Record<string, unknown>;
    } catch {
      // Not JSON (an HTML error page): the status says what happened.
    }
    if (response.status === 429 || response.status >= 500) throw new ShopifyConnectionError('shopify_unavailable', `Shopify answered HTTP ${response.status}; try again shortly`);
    return { status: response.status, json };
  }

  async function mutation<T>(shop: string, accessToken: string, name: string, query: string, variables: Record<string, unknown>): Promise<T & { userErrors: UserError[] }> {
    const { status, json } = await post(shop, `/admin/api/${SHOPIFY_API_VERSION}/graphql.json`, { query, variables }, { 'x-shopify-access-token': accessToken });
    if (status === 401 || status === 403) throw new ShopifyConnectionError('token_invalid', `Shopify refused Signalbox's access to ${shop} (HTTP ${status}): the app was uninstalled or its access revoked; connect the shop again`);
    const errors = Array.isArray(json.errors) ? (json.errors as { message?: string; extensions?: { code?: string } }[]) : typeof json.errors === 'string' ? [{ message: json.errors }] : [];
    if (errors.some((e) => e.extensions?.code === 'THROTTLED')) throw new ShopifyConnectionError('shopify_unavailable', 'Shopify is throttling Signalbox\'s calls to this shop; try again in a minute');
    const payload = (json.data as Record<string, unknown> | undefined)?.[name] as (T & { userErrors: UserError[] }) | undefined;
    if (status !== 200 || errors.length > 0 || payload === undefined) {
      throw new ShopifyConnectionError('shopify_rejected', `Shopify refused ${name} (HTTP ${status}: ${errors.map((e) => e.message).join('; ') || 'no answer'})`);
    }
    return payload;
  }

  function refusedBy(name: string, errors: readonly UserError[]): ShopifyConnectionError {
    return new ShopifyConnectionError('shopify_rejected', `Shopify refused ${name}: ${errors.map((e) => e.message).join('; ')}`, { userErrors: errors });
  }

  return {
    /** Where the shop's admin is reached (`https://{shop}` in production). */
    shopUrl: base,

    /** The authorization code for the shop's offline access token and the scopes granted. */
    async exchangeCode(shop: string, input: { clientId: string; clientSecret: string; code: string }): Promise<{ accessToken: string; scopes: string[] }> {
      const { status, json } = await post(shop, '/admin/oauth/access_token', { client_id: input.clientId, client_secret: input.clientSecret, code: input.code });
      if (status !== 200 || typeof json.access_token !== 'string' || json.access_token === '') {
        const said = typeof json.error_description === 'string' ? json.error_description : typeof json.error === 'string' ? json.error : `HTTP ${status}`;
        throw new ShopifyConnectionError('code_rejected', `code: Shopify refused it (${said}); connect the shop again`);
      }
      const scopes = typeof json.scope === 'string' ? json.scope.split(',').map((s) => s.trim()).filter((s) => s !== '') : [];
      return { accessToken: json.access_token, scopes };
    },

    async createWebhook(shop: string, accessToken: string, topic: string, uri: string): Promise<string> {
      const answer = await mutation<{ webhookSubscription: { id: string } | null }>(shop, accessToken, 'webhookSubscriptionCreate', GRAPHQL.webhookCreate, {
        topic: topicEnum(topic),
        webhookSubscription: { uri, format: 'JSON' },
      });
      if (answer.userErrors.length > 0 || answer.webhookSubscription === null) throw refusedBy(`the ${topic} webhook`, answer.userErrors);
      return answer.webhookSubscription.id;
    },

    async deleteWebhook(shop: string, accessToken: string, id: string): Promise<void> {
      const answer = await mutation<unknown>(shop, accessToken, 'webhookSubscriptionDelete', GRAPHQL.webhookDelete, { id });
      if (answer.userErrors.length > 0 && !alreadyGone(answer.userErrors)) throw refusedBy('removing a webhook', answer.userErrors);
    },

    async createScriptTag(shop: string, accessToken: string, src: string): Promise<string> {
      const answer = await mutation<{ scriptTag: { id: string } | null }>(shop, accessToken, 'scriptTagCreate', GRAPHQL.scriptTagCreate, { input: { src, displayScope: 'ONLINE_STORE', cache: false } });
      if (answer.userErrors.length > 0 || answer.scriptTag === null) throw refusedBy('the storefront script', answer.userErrors);
      return answer.scriptTag.id;
    },

    async deleteScriptTag(shop: string, accessToken: string, id: string): Promise<void> {
      const answer = await mutation<unknown>(shop, accessToken, 'scriptTagDelete', GRAPHQL.scriptTagDelete, { id });
      if (answer.userErrors.length > 0 && !alreadyGone(answer.userErrors)) throw refusedBy('removing the storefront script', answer.userErrors);
    },
  };
}

export type ShopifyAdmin = ReturnType<typeof createShopifyAdmin>;
