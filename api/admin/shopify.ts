import type { FastifyPluginAsync } from 'fastify';
import { shopifyAuthorizeBody } from '../../contract/settings-api/shopify-routes';
import type { ShopifyConnectionService } from '../services/shopify-connection';
import { notFound } from '../http/http-error';
import { parseOrReject } from '../http/validation';
import { workspaceOf } from './workspace-scope';

/** `/admin/workspaces/:workspaceId/shopify`: Connect Shopify's start, its status and disconnecting. */
export const shopifyRoutes: FastifyPluginAsync<{ connections: ShopifyConnectionService }> = async (app, { connections }) => {
  app.post('/oauth/authorize', async (request) => {
    const { shop } = parseOrReject(shopifyAuthorizeBody, request.body, 'body');
    return connections.authorizationUrl(workspaceOf(request).id, shop);
  });

  app.get('/', async (request) => connections.status(workspaceOf(request).id));

  app.delete('/', async (request) => {
    if (!(await connections.disconnect(workspaceOf(request).id))) throw notFound('this workspace has no Shopify connection');
    return { deleted: true as const };
  });
};
