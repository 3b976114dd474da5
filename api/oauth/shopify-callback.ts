import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { shopifyCallbackQuery } from '../../contract/operations';
import { claimedActor, claimedWorkspaceId } from '../services/tiktok-connection';
import type { ShopifyConnectionService, ShopifyConnectionView } from '../services/shopify-connection';
import { serviceErrorAsHttp } from '../services/service-errors';
import { SHOPIFY_OAUTH_CALLBACK_PATH } from '../http/paths';
import { parseOrReject } from '../http/validation';
import { CALLBACK_PAGE_HEADERS, callbackPage, wantsHtml } from './callback-page';

/** What the owner reads once the shop is connected: what Signalbox made there. */
function connectedText(view: ShopifyConnectionView): string[] {
  const topics = view.subscriptions.map((s) => s.topic).join(', ');
  return [
    `Signalbox now receives ${view.shopDomain}'s webhooks (${topics}) and added its tracking script to the shop's storefront.`,
    `Check it with signalbox shopify status ${view.workspaceId}.`,
  ];
}

/**
 * `GET /oauth/shopify/callback?code&hmac&shop&state&timestamp`: the owner's browser, sent back by Shopify once the
 * Signalbox app is approved in the shop. No admin token: Shopify's `hmac` and the signed, expiring, single-use `state`
 * (naming workspace and shop) protect it. A page for browsers (a redirect to the console when started there), JSON
 * otherwise.
 */
export const shopifyOAuthCallbackRoutes: FastifyPluginAsync<{ connections: ShopifyConnectionService }> = async (app, { connections }) => {
  function page(reply: FastifyReply, status: number, title: string, paragraphs: string[]) {
    return reply.code(status).headers(CALLBACK_PAGE_HEADERS).send(callbackPage(title, paragraphs));
  }

  app.get(SHOPIFY_OAUTH_CALLBACK_PATH, async (request, reply) => {
    const html = wantsHtml(request.headers.accept);
    const state = (request.query as { state?: unknown }).state;
    const workspaceId = typeof state === 'string' ? claimedWorkspaceId(state) : undefined;
    // Only to word the answer; whether the state is genuine is decided by completeAuthorization.
    const consoleSources = typeof state === 'string' && claimedActor(state)?.startsWith('user:') ? `/console/w/${encodeURIComponent(workspaceId ?? '')}/sources` : undefined;
    try {
      parseOrReject(shopifyCallbackQuery, request.query, 'query');
      // Shopify signs the parameters as sent: read them from the URL, not from the parsed (possibly merged) query.
      const view = await connections.completeAuthorization([...new URLSearchParams(request.url.split('?')[1] ?? '')]);
      if (!html) return reply.header('cache-control', 'no-store').send({ connected: true, workspaceId: view.workspaceId, connection: view, message: connectedText(view).join(' ') });
      if (consoleSources !== undefined) return reply.headers(CALLBACK_PAGE_HEADERS).redirect(`${consoleSources}?shopify=connected`);
      return page(reply, 200, 'Your Shopify shop is connected', connectedText(view));
    } catch (error) {
      if (!html) throw error;
      const known = serviceErrorAsHttp(error);
      const again = consoleSources === undefined ? `Start again with signalbox shopify connect ${workspaceId ?? '<workspace>'} --shop <your-shop>.myshopify.com.` : `Go back to the console (${consoleSources}) and connect the shop again.`;
      if (known === undefined) {
        request.log.error({ err: error }, 'Shopify OAuth callback failed');
        return page(reply, 500, 'Your Shopify shop could not be connected', ['Signalbox failed internally; the server log has the details.', again]);
      }
      return page(reply, known.statusCode, 'Your Shopify shop could not be connected', [known.message, again]);
    }
  });
};
