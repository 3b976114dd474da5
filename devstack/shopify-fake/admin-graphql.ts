import { randomBytes } from 'node:crypto';

/* The GraphQL Admin API mutations the fake Shopify plays (docs/reference/shopify-app.md "Admin API"), in Shopify's envelope. */

export interface FakeSubscription {
  id: string;
  /** As webhooks name it: `orders/create`. */
  topic: string;
  uri: string;
}

export interface FakeScriptTag {
  id: string;
  src: string;
  displayScope: string;
}

/** What the fake keeps of one shop with the app installed. */
export interface FakeShop {
  domain: string;
  scopes: string[];
  subscriptions: FakeSubscription[];
  scriptTags: FakeScriptTag[];
}

type UserError = { field: string[] | null; message: string };
type Answer = { status: number; body: unknown };

const nextId = () => String(BigInt(`0x${randomBytes(5).toString('hex')}`));

/** `ORDERS_CREATE` → `orders/create`; the resource may hold underscores (`APP_SUBSCRIPTIONS_UPDATE`), the action does not. */
export const topicName = (value: string) => value.toLowerCase().replace(/_([a-z]+)$/, '/$1');

/** The scope each topic needs (the order and cart topics `read_orders`, the customer ones `read_customers`). */
function scopeFor(topic: string): string | undefined {
  if (topic.startsWith('customers/')) return 'read_customers';
  if (/^(orders|checkouts|carts|refunds)\//.test(topic)) return 'read_orders';
  return undefined;
}

const granted = (shop: FakeShop, scope: string) => shop.scopes.includes(scope) || shop.scopes.includes(scope.replace(/^read_/, 'write_'));

/** Shopify takes https callbacks; the fake also takes http on this machine, where the dev stack and tests listen. */
function addressProblem(uri: unknown): string | undefined {
  if (typeof uri !== 'string' || !URL.canParse(uri)) return 'Address is invalid';
  const url = new URL(uri);
  const local = url.hostname === '127.0.0.1' || url.hostname === 'localhost';
  return url.protocol === 'https:' || (url.protocol === 'http:' && local) ? undefined : `Address protocol ${url.protocol}// is not supported`;
}

const data = (name: string, payload: Record<string, unknown>): Answer => ({ status: 200, body: { data: { [name]: payload }, extensions: { cost: { requestedQueryCost: 10, actualQueryCost: 10 } } } });
const refused = (name: string, empty: Record<string, null>, userErrors: UserError[]) => data(name, { ...empty, userErrors });
const accessDenied = (name: string, scope: string): Answer => ({
  status: 200,
  body: { errors: [{ message: `Access denied for ${name} field. Required access: \`${scope}\` access scope.`, extensions: { code: 'ACCESS_DENIED' } }] },
});

/** One GraphQL request against a shop: the four mutations Connect Shopify uses, anything else refused as Shopify would. */
export function runMutation(shop: FakeShop, query: string, variables: Record<string, unknown>): Answer {
  const name = /\b(webhookSubscriptionCreate|webhookSubscriptionDelete|scriptTagCreate|scriptTagDelete)\s*\(/.exec(query)?.[1];
  switch (name) {
    case 'webhookSubscriptionCreate': {
      const topic = typeof variables.topic === 'string' ? topicName(variables.topic) : '';
      const input = (variables.webhookSubscription ?? {}) as { uri?: unknown; callbackUrl?: unknown };
      const uri = input.uri ?? input.callbackUrl;
      const scope = scopeFor(topic);
      const empty = { webhookSubscription: null };
      if (scope !== undefined && !granted(shop, scope)) return refused(name, empty, [{ field: ['topic'], message: `You do not have permission to create or update webhooks with ${topic} topic. This topic requires the ${scope} scope.` }]);
      const problem = addressProblem(uri);
      if (problem !== undefined) return refused(name, empty, [{ field: ['webhookSubscription', 'uri'], message: problem }]);
      if (shop.subscriptions.some((s) => s.topic === topic && s.uri === uri)) return refused(name, empty, [{ field: ['webhookSubscription', 'uri'], message: 'Address for this topic has already been taken' }]);
      const subscription = { id: `gid://shopify/WebhookSubscription/${nextId()}`, topic, uri: uri as string };
      shop.subscriptions.push(subscription);
      return data(name, { webhookSubscription: { id: subscription.id, topic: variables.topic, uri: subscription.uri }, userErrors: [] });
    }
    case 'webhookSubscriptionDelete': {
      const index = shop.subscriptions.findIndex((s) => s.id === variables.id);
      if (index === -1) return refused(name, { deletedWebhookSubscriptionId: null }, [{ field: ['id'], message: 'Webhook subscription does not exist' }]);
      shop.subscriptions.splice(index, 1);
      return data(name, { deletedWebhookSubscriptionId: variables.id, userErrors: [] });
    }
    case 'scriptTagCreate': {
      if (!granted(shop, 'write_script_tags')) return accessDenied(name, 'write_script_tags');
      const input = (variables.input ?? {}) as { src?: unknown; displayScope?: unknown };
      const problem = addressProblem(input.src);
      if (problem !== undefined) return refused(name, { scriptTag: null }, [{ field: ['input', 'src'], message: problem.replace('Address', 'Source') }]);
      const tag = { id: `gid://shopify/ScriptTag/${nextId()}`, src: input.src as string, displayScope: typeof input.displayScope === 'string' ? input.displayScope : 'ONLINE_STORE' };
      shop.scriptTags.push(tag);
      return data(name, { scriptTag: tag, userErrors: [] });
    }
    case 'scriptTagDelete': {
      if (!granted(shop, 'write_script_tags')) return accessDenied(name, 'write_script_tags');
      const index = shop.scriptTags.findIndex((t) => t.id === variables.id);
      if (index === -1) return refused(name, { deletedScriptTagId: null }, [{ field: ['id'], message: 'Script tag does not exist' }]);
      shop.scriptTags.splice(index, 1);
      return data(name, { deletedScriptTagId: variables.id, userErrors: [] });
    }
    default:
      return { status: 200, body: { errors: [{ message: 'The fake Shopify plays only webhookSubscriptionCreate/Delete and scriptTagCreate/Delete', extensions: { code: 'undefinedField' } }] } };
  }
}
