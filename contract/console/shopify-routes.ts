import { errors } from '../errors';
import { shopifyAuthorizeBody } from '../settings-api/shopify-routes';
import { callsShopify, shopifyNotConfigured, shopifyNotConnected } from '../shopify-answers';
import { shopifyAuthorizationView, shopifyStatusView } from '../shopify-views';
import { disconnectedView } from '../tiktok-views';
import { inWorkspace } from '../workspaces';
import { consoleRoute, consoleWorkspacePath } from './console-route';

const path = consoleWorkspacePath;

/** Sources > Shopify: Connect Shopify from the console. */
export const CONSOLE_SHOPIFY_ROUTES = [
  consoleRoute({ method: 'GET', path: path('/shopify'), summary: 'Whether Connect Shopify is offered, and the connected shop', params: inWorkspace(), answers: { 200: { description: 'The connection, or null', schema: shopifyStatusView } } }),
  consoleRoute({
    method: 'POST',
    path: path('/shopify/authorize'),
    summary: "Shopify's page where the owner approves the Signalbox app",
    role: 'editor',
    params: inWorkspace(),
    body: shopifyAuthorizeBody,
    answers: { 200: { description: 'The URL', schema: shopifyAuthorizationView }, ...errors(400), 503: shopifyNotConfigured },
  }),
  consoleRoute({ method: 'DELETE', path: path('/shopify'), summary: 'Disconnect the shop', role: 'editor', params: inWorkspace(), answers: { 200: { description: 'Disconnected', schema: disconnectedView }, ...callsShopify, 404: shopifyNotConnected } }),
];
