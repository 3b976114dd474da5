import { errors } from '../errors';
import { jsonBody, requiredText } from '../fields';
import { callsShopify, shopifyNotConfigured, shopifyNotConnected } from '../shopify-answers';
import { shopifyAuthorizationView, shopifyStatusView } from '../shopify-views';
import { disconnectedView } from '../tiktok-views';
import { inWorkspace } from '../workspaces';
import { adminRoute, inWorkspacePath } from './admin-route';

/** The shop to connect: its myshopify.com domain (the service checks it and names the rule). */
export const shopifyAuthorizeBody = jsonBody({ shop: requiredText(255) });

export const SHOPIFY_ROUTES = [
  adminRoute({
    method: 'POST',
    path: inWorkspacePath('/shopify/oauth/authorize'),
    summary: 'Connect Shopify: the page where the owner approves the Signalbox app in their shop',
    tag: 'Shopify',
    params: inWorkspace(),
    body: shopifyAuthorizeBody,
    answers: { 200: { description: 'The URL and its signed state (naming the shop)', schema: shopifyAuthorizationView }, ...errors(400), 503: shopifyNotConfigured },
  }),
  adminRoute({
    method: 'GET',
    path: inWorkspacePath('/shopify'),
    summary: 'Whether Connect Shopify is offered, and what it made in the connected shop',
    tag: 'Shopify',
    params: inWorkspace(),
    answers: { 200: { description: 'The connection, or null', schema: shopifyStatusView } },
  }),
  adminRoute({
    method: 'DELETE',
    path: inWorkspacePath('/shopify'),
    summary: 'Disconnect the shop: its webhooks and storefront script removed from Shopify',
    tag: 'Shopify',
    params: inWorkspace(),
    answers: { 200: { description: 'Disconnected', schema: disconnectedView }, ...callsShopify, 404: shopifyNotConnected },
  }),
];
