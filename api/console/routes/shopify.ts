import type { FastifyPluginAsync } from 'fastify';
import { shopifyAuthorizeBody } from '../../../contract/settings-api/shopify-routes';
import type { ShopifyConnectionService } from '../../services/shopify-connection';
import { notFound } from '../../http/http-error';
import { parseOrReject } from '../../http/validation';
import { actorOf, currentWorkspace, needs } from '../auth';

/** Sources > Shopify: Connect Shopify, as the settings API's, with the person who asked in the change log. */
export const consoleShopifyRoutes: FastifyPluginAsync<{ connections: ShopifyConnectionService }> = async (app, { connections }) => {
  const editor = { preHandler: needs('editor') };

  app.get('/shopify', async (request) => connections.status(currentWorkspace(request).id));

  app.post('/shopify/authorize', editor, async (request) => {
    const { shop } = parseOrReject(shopifyAuthorizeBody, request.body, 'body');
    return connections.authorizationUrl(currentWorkspace(request).id, shop, actorOf(request));
  });

  app.delete('/shopify', editor, async (request) => {
    if (!(await connections.disconnect(currentWorkspace(request).id, actorOf(request)))) throw notFound('this workspace has no Shopify connection');
    return { deleted: true as const };
  });
};
