import type { Knex } from 'knex';
import type { Repositories } from '../../../db/repositories';
import type { ShopifyConnection, ShopifyConnectionWithToken, ShopifySubscription } from '../../../db/repositories/shopify-connections';
import type { WebhookSourceWithSecret } from '../../../db/repositories/webhook-sources';
import { shopifyQuerySigned } from '../../../domain/shopify/oauth-query';
import { SHOP_DOMAIN_RULE, shopDomainOf } from '../../../domain/shopify/shop-domain';
import type { PublicLinks } from '../../http/public-links';
import { SHOPIFY_TOPICS } from '../../http/webhook-sources';
import { saveWorkspaceSettings } from '../settings/workspace-settings';
import { claimedWorkspaceId, type OAuthStateSigner } from '../tiktok-connection';
import { ShopifyConnectionError } from './errors';
import type { ShopifyAdmin } from './shopify-admin';

/** The Signalbox Shopify app (`SHOPIFY_API_KEY`, `SHOPIFY_API_SECRET`); both unset on a server that does not offer Connect Shopify. */
export interface ShopifyApp {
  apiKey?: string;
  secret?: string;
}

/** What the topics and the storefront script need (docs/reference/shopify-app.md "Scopes"). */
export const SHOPIFY_SCOPES = ['read_orders', 'read_customers', 'write_script_tags'] as const;

/** The source's topics, and the one that tells Signalbox the app was removed. */
export const SUBSCRIBED_TOPICS = [...SHOPIFY_TOPICS, 'app/uninstalled'] as const;

export interface ShopifyConnectionServiceDeps {
  repos: Pick<Repositories, 'shopifyConnections' | 'webhookSources' | 'apiKeys' | 'oauthStates' | 'workspaces' | 'changeLog'>;
  transaction: <T>(work: (trx: Knex) => Promise<T>) => Promise<T>;
  app: ShopifyApp;
  admin: ShopifyAdmin;
  states: OAuthStateSigner;
  links: PublicLinks;
  now?: () => Date;
}

/** A connection as the settings API and the console show it: what Signalbox made in the shop. Never the token. */
export interface ShopifyConnectionView {
  workspaceId: string;
  shopDomain: string;
  grantedScopes: string[];
  connectedAt: Date;
  /** The Shopify source the shop's webhooks deliver to; null when it was deleted since. */
  source: { id: string; webhookUrl: string } | null;
  subscriptions: ShopifySubscription[];
  /** Topics Signalbox subscribes that the shop does not have (a step that failed: connect again). */
  missingTopics: string[];
  scriptTag: { id: string; src: string } | null;
  /** The browser key made for the storefront script. */
  browserKeyId: string | null;
}

export interface ShopifyStatusView {
  /** Whether this server offers Connect Shopify (SHOPIFY_API_KEY and SHOPIFY_API_SECRET set). */
  configured: boolean;
  connection: ShopifyConnectionView | null;
}

const NOT_CONFIGURED =
  'Connect Shopify is not set up on this Signalbox server: whoever runs it must first set SHOPIFY_API_KEY and SHOPIFY_API_SECRET (the Signalbox app in Shopify). Until then, add the shop as a Shopify source and create its webhooks in Shopify\'s admin.';

/** The name of the Shopify source Connect Shopify makes for a shop, by which a later connection or Shopify's shop/redact finds it. */
const connectedSourceName = (shopDomain: string) => `${shopDomain} (Connect Shopify)`;

/** What the change log keeps of a connection: never the token. */
const record = (c: ShopifyConnection) => ({ shopDomain: c.shopDomain, sourceId: c.sourceId, topics: c.subscriptions.map((s) => s.topic), scriptTag: c.scriptTag !== null });

/**
 * Connect Shopify, for every face: the OAuth round trip (signed state naming the shop, Shopify's signed redirect, the
 * code exchanged for the shop's token, sealed), then, through the Admin API, the webhook subscriptions to a Shopify
 * source signed with the app's secret and the storefront script tag carrying a browser key, its origin allowed; disconnecting (or
 * Shopify's `app/uninstalled`) removes them. Failures throw ShopifyConnectionError.
 */
export function createShopifyConnectionService(deps: ShopifyConnectionServiceDeps) {
  const now = deps.now ?? (() => new Date());
  const { shopifyConnections, webhookSources, apiKeys } = deps.repos;

  function app(): { apiKey: string; secret: string } {
    const { apiKey, secret } = deps.app;
    if (apiKey === undefined || secret === undefined) throw new ShopifyConnectionError('shopify_not_configured', NOT_CONFIGURED);
    return { apiKey, secret };
  }

  function view(connection: ShopifyConnection): ShopifyConnectionView {
    const subscribed = new Set(connection.subscriptions.map((s) => s.topic));
    return {
      workspaceId: connection.workspaceId,
      shopDomain: connection.shopDomain,
      grantedScopes: connection.grantedScopes,
      connectedAt: connection.connectedAt,
      source: connection.sourceId === null ? null : { id: connection.sourceId, webhookUrl: deps.links.webhook(connection.sourceId) },
      subscriptions: connection.subscriptions,
      missingTopics: SUBSCRIBED_TOPICS.filter((topic) => !subscribed.has(topic)),
      scriptTag: connection.scriptTag,
      browserKeyId: connection.browserKeyId,
    };
  }

  /** Removes what a connection made in its shop. A refused token means the app is gone, and with it all it made. */
  async function removeFromShop(connection: ShopifyConnection, accessToken: string): Promise<void> {
    try {
      for (const subscription of connection.subscriptions) await deps.admin.deleteWebhook(connection.shopDomain, accessToken, subscription.id);
      if (connection.scriptTag !== null) await deps.admin.deleteScriptTag(connection.shopDomain, accessToken, connection.scriptTag.id);
    } catch (error) {
      if (!(error instanceof ShopifyConnectionError && error.code === 'token_invalid')) throw error;
    }
  }

  /** Forgets the connection: its browser key revoked, its row gone (the source stays, with its history). */
  async function forget(workspaceId: string, actor: string, action: string): Promise<boolean> {
    return deps.transaction(async (trx) => {
      const gone = await shopifyConnections.remove(workspaceId, trx);
      if (gone === undefined) return false;
      if (gone.browserKeyId !== null) await apiKeys.revoke(workspaceId, gone.browserKeyId, trx);
      await deps.repos.changeLog.record({ workspaceId, actor, action, target: 'shopify', before: record(gone), after: null }, trx);
      return true;
    });
  }

  /**
   * The shop's storefront origin added to the workspace's allowed origins, so that the script tag's events are accepted.
   * Only the myshopify.com one: a custom domain the shop's visitors see is the owner's to add (docs/shopify-and-webhooks.md).
   */
  async function allowStorefront(workspaceId: string, actor: string, shopDomain: string, trx: Knex): Promise<void> {
    const workspace = await deps.repos.workspaces.find(workspaceId, trx);
    const origin = `https://${shopDomain}`;
    if (workspace === undefined || workspace.allowedOrigins.includes(origin)) return;
    await saveWorkspaceSettings(deps.repos, actor, workspace, { allowedOrigins: [...workspace.allowedOrigins, origin] }, trx);
  }

  /** The shop's source (the earlier one when it still exists), a new browser key, and the token, in one transaction. */
  async function storeAuthorized(workspaceId: string, actor: string, shopDomain: string, grant: { accessToken: string; scopes: string[] }, previous: ShopifyConnection | undefined, secret: string) {
    return deps.transaction(async (trx) => {
      // After Shopify's app/uninstalled the connection is gone, but the shop's source (with its history) is not.
      const name = connectedSourceName(shopDomain);
      const earlier = previous?.sourceId ?? (await webhookSources.list(workspaceId, trx)).find((source) => source.type === 'shopify' && source.name === name)?.id;
      const kept = earlier === undefined ? undefined : await webhookSources.setSecret(workspaceId, earlier, secret, trx);
      const source = kept ?? (await webhookSources.create(workspaceId, { type: 'shopify', name, signingSecret: secret }, trx));
      if (previous?.browserKeyId) await apiKeys.revoke(workspaceId, previous.browserKeyId, trx);
      const key = await apiKeys.create(workspaceId, `Shopify storefront (${shopDomain})`, 'browser', trx);
      await allowStorefront(workspaceId, actor, shopDomain, trx);
      const stored = await shopifyConnections.putAuthorized(workspaceId, { shopDomain, accessToken: grant.accessToken, grantedScopes: grant.scopes, sourceId: source.id, browserKeyId: key.id }, trx);
      await deps.repos.changeLog.record({ workspaceId, actor, action: 'shopify.connect', target: 'shopify', before: previous ? record(previous) : null, after: record(stored) }, trx);
      return { sourceId: source.id, browserKey: key.key };
    });
  }

  /** Subscribes every topic and installs the script; whatever was made is recorded, even when a later step fails. */
  async function installInShop(workspaceId: string, shopDomain: string, accessToken: string, sourceId: string, browserKey: string): Promise<ShopifyConnection> {
    const subscriptions: ShopifySubscription[] = [];
    let scriptTag: { id: string; src: string } | null = null;
    try {
      for (const topic of SUBSCRIBED_TOPICS) {
        const uri = topic === 'app/uninstalled' ? deps.links.shopifyAppUninstalled : deps.links.webhook(sourceId);
        subscriptions.push({ topic, id: await deps.admin.createWebhook(shopDomain, accessToken, topic, uri) });
      }
      const src = `${deps.links.trackingScript}?key=${encodeURIComponent(browserKey)}`;
      scriptTag = { id: await deps.admin.createScriptTag(shopDomain, accessToken, src), src };
    } finally {
      await shopifyConnections.recordInstalled(workspaceId, { subscriptions, scriptTag });
    }
    return (await shopifyConnections.find(workspaceId)) as ShopifyConnection;
  }

  return {
    configured: () => deps.app.apiKey !== undefined && deps.app.secret !== undefined,

    /** Step 1: Shopify's page where the owner approves the app in their shop, with a signed `state` naming workspace and shop. */
    async authorizationUrl(workspaceId: string, shopInput: string, actor = 'operator'): Promise<{ url: string; state: string; expiresAt: Date; shopDomain: string }> {
      const { apiKey } = app();
      const shopDomain = shopDomainOf(shopInput);
      if (shopDomain === undefined) throw new ShopifyConnectionError('shop_invalid', `shop ${SHOP_DOMAIN_RULE}`);
      if ((await deps.repos.workspaces.find(workspaceId)) === undefined) throw new ShopifyConnectionError('workspace_not_found', `workspace ${workspaceId} does not exist`);
      const issued = deps.states.issue(workspaceId, now(), actor, shopDomain);
      const url = new URL(`${deps.admin.shopUrl(shopDomain)}/admin/oauth/authorize`);
      url.searchParams.set('client_id', apiKey);
      url.searchParams.set('scope', SHOPIFY_SCOPES.join(','));
      url.searchParams.set('redirect_uri', deps.links.shopifyOAuthCallback);
      url.searchParams.set('state', issued.state);
      return { url: url.toString(), state: issued.state, expiresAt: issued.expiresAt, shopDomain };
    },

    /**
     * Step 2, Shopify's redirect: its `hmac` checked over the other parameters with the app's secret, `shop` the one the
     * state names, the state genuine, unexpired and unused; then the code exchanged and the shop set up.
     */
    async completeAuthorization(query: readonly (readonly [string, string])[]): Promise<ShopifyConnectionView> {
      const { apiKey, secret } = app();
      const given = (name: string) => query.find(([key]) => key === name)?.[1];
      if (!shopifyQuerySigned(query, secret)) {
        throw new ShopifyConnectionError('hmac_invalid', 'hmac: this address was not signed by Shopify for the Signalbox app; start connecting the shop again');
      }
      const shopDomain = shopDomainOf(given('shop') ?? '');
      if (shopDomain === undefined) throw new ShopifyConnectionError('shop_invalid', `shop ${SHOP_DOMAIN_RULE}`);
      const state = given('state') ?? '';
      const workspaceId = claimedWorkspaceId(state);
      if (workspaceId === undefined) throw new ShopifyConnectionError('state_invalid', 'state: not a state Signalbox issued (malformed); start connecting the shop again');
      const verified = deps.states.verify(state, workspaceId, now());
      if (verified.subject !== shopDomain) {
        throw new ShopifyConnectionError('shop_mismatch', `shop: Shopify approved ${shopDomain}, but the connection was started for ${verified.subject ?? 'another shop'}; start again and approve in that shop`);
      }
      if (!(await deps.repos.oauthStates.consume(verified.nonce, workspaceId, verified.expiresAt))) {
        throw new ShopifyConnectionError('state_reused', 'state: this approval was already used; start connecting the shop again');
      }
      const code = given('code');
      if (code === undefined || code === '') throw new ShopifyConnectionError('code_rejected', 'code: missing from Shopify\'s redirect; start connecting the shop again');
      const holder = await shopifyConnections.byShop(shopDomain);
      if (holder !== undefined && holder.workspaceId !== workspaceId) {
        throw new ShopifyConnectionError('shop_connected_elsewhere', `shop: ${shopDomain} is connected to another Signalbox workspace; disconnect it there first`);
      }

      const grant = await deps.admin.exchangeCode(shopDomain, { clientId: apiKey, clientSecret: secret, code });
      const previous: ShopifyConnectionWithToken | undefined = await shopifyConnections.withToken(workspaceId);
      // What an earlier connection made goes first: in the same shop the new token may remove it, elsewhere the old one.
      if (previous !== undefined) await removeFromShop(previous, previous.shopDomain === shopDomain ? grant.accessToken : previous.accessToken);
      const { sourceId, browserKey } = await storeAuthorized(workspaceId, verified.actor, shopDomain, grant, previous, secret);
      return view(await installInShop(workspaceId, shopDomain, grant.accessToken, sourceId, browserKey));
    },

    async status(workspaceId: string): Promise<ShopifyStatusView> {
      const connection = await shopifyConnections.find(workspaceId);
      return { configured: this.configured(), connection: connection === undefined ? null : view(connection) };
    },

    /** Removes the webhooks and the script from the shop, then the connection. False when there was none. */
    async disconnect(workspaceId: string, actor = 'operator'): Promise<boolean> {
      const current = await shopifyConnections.withToken(workspaceId);
      if (current === undefined) return false;
      await removeFromShop(current, current.accessToken);
      return forget(workspaceId, actor, 'shopify.disconnect');
    },

    /** Shopify's `app/uninstalled` (already verified): the shop removed the app, and Shopify what it had made. */
    async uninstalled(shopInput: string): Promise<boolean> {
      const shopDomain = shopDomainOf(shopInput);
      const connection = shopDomain === undefined ? undefined : await shopifyConnections.byShop(shopDomain);
      return connection === undefined ? false : forget(connection.workspaceId, `shopify:${connection.shopDomain}`, 'shopify.uninstalled');
    },

    /**
     * Where the app's privacy topics for a shop apply: the connected shop's source, and the sources Connect Shopify made
     * for the shop that still exist, still signed with the app's secret, in any workspace (shop/redact comes 48 hours
     * after uninstalling, when the connection is gone; a shop connected to one workspace after another left a source in
     * each). None when the shop never connected or its sources were deleted.
     */
    async complianceSources(shopInput: string): Promise<WebhookSourceWithSecret[]> {
      const shopDomain = shopDomainOf(shopInput);
      if (shopDomain === undefined) return [];
      const connection = await shopifyConnections.byShop(shopDomain);
      const connected = connection?.sourceId ? await webhookSources.withSecret(connection.sourceId) : undefined;
      const named = (await webhookSources.withSecretNamed('shopify', connectedSourceName(shopDomain))).filter((source) => source.signingSecret === deps.app.secret);
      return connected === undefined || named.some((source) => source.id === connected.id) ? named : [connected, ...named];
    },

    /** The app's secret, which signs `app/uninstalled`; undefined when Connect Shopify is not set up. */
    appSecret: () => deps.app.secret,
  };
}

export type ShopifyConnectionService = ReturnType<typeof createShopifyConnectionService>;
