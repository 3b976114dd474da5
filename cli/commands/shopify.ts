import type { Command } from 'commander';
import type { ShopifyAuthorizationViewBody, ShopifyConnectionViewBody, ShopifyStatusViewBody } from '../../contract/shopify-views';
import type { DisconnectedView } from '../../contract/tiktok-views';
import { formatRecord } from '../output';
import { act, type CliIo } from '../session';

const shopifyPath = (workspaceId: string) => `/admin/workspaces/${encodeURIComponent(workspaceId)}/shopify`;

function authorizationText(answer: ShopifyAuthorizationViewBody): string {
  return [
    `Open this URL in a browser, log in to ${answer.shopDomain} if Shopify asks, and press "Install app":`,
    '',
    `  ${answer.url}`,
    '',
    `The link works until ${answer.expiresAt}, once. Shopify then sends the browser back to Signalbox, which subscribes`,
    "the shop's webhooks and adds the tracking script to its storefront.",
  ].join('\n');
}

export function shopifyConnectionText(connection: ShopifyConnectionViewBody): string {
  return formatRecord([
    ['Shop', connection.shopDomain],
    ['Connected', connection.connectedAt],
    ['Webhooks', connection.subscriptions.map((s) => s.topic).join(', ') || 'none'],
    ['Missing webhooks', connection.missingTopics.length === 0 ? 'none' : `${connection.missingTopics.join(', ')}: connect the shop again`],
    ['Delivered to', connection.source === null ? 'no source (it was deleted): connect the shop again' : `${connection.source.webhookUrl} (source ${connection.source.id})`],
    ['Storefront script', connection.scriptTag?.src ?? 'not installed: connect the shop again'],
  ]);
}

function statusText(workspaceId: string, status: ShopifyStatusViewBody): string {
  if (status.connection !== null) return shopifyConnectionText(status.connection);
  if (!status.configured) {
    return 'Connect Shopify is not set up on this server (SHOPIFY_API_KEY and SHOPIFY_API_SECRET). Add the shop as a Shopify source instead: signalbox sources create <workspace> --shopify --name <shop> --secret <the key Shopify shows>.';
  }
  return `No shop is connected. Connect one with signalbox shopify connect ${workspaceId} --shop <your-shop>.myshopify.com`;
}

/** `signalbox shopify …`: Connect Shopify (the Signalbox app installed in a shop), its status and disconnecting. */
export function registerShopifyCommands(program: Command, io: CliIo): void {
  const shopify = program.command('shopify').description('Connect Shopify: install the Signalbox app in a shop, which subscribes its webhooks and adds the tracking script');
  shopify
    .command('connect <workspaceId>')
    .description('start connecting a shop: prints the Shopify page to open and approve')
    .requiredOption('--shop <domain>', "the shop's myshopify.com address, e.g. fern-shop.myshopify.com")
    .action(
      act(io, async ({ request, print }, workspaceId: string, flags: { shop: string }) => {
        print(await request<ShopifyAuthorizationViewBody>('POST', `${shopifyPath(workspaceId)}/oauth/authorize`, { body: { shop: flags.shop } }), authorizationText);
      }, { shop: '--shop' }),
    );
  shopify
    .command('status <workspaceId>')
    .description('the connected shop: the webhooks subscribed and the storefront script installed')
    .action(
      act(io, async ({ request, print }, workspaceId: string) => {
        print(await request<ShopifyStatusViewBody>('GET', shopifyPath(workspaceId)), (status) => statusText(workspaceId, status));
      }),
    );
  shopify
    .command('disconnect <workspaceId>')
    .description("remove Signalbox's webhooks and script from the shop and forget it (its source and events stay)")
    .action(
      act(io, async ({ request, print }, workspaceId: string) => {
        print(await request<DisconnectedView>('DELETE', shopifyPath(workspaceId)), () => "Disconnected: Signalbox's webhooks and storefront script were removed from the shop.");
      }),
    );
}
