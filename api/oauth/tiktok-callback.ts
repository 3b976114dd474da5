import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { claimedActor, claimedWorkspaceId, TikTokConnectionError, type TikTokConnectionService } from '../services/tiktok-connection';
import { badRequest } from '../http/http-error';
import { serviceErrorAsHttp } from '../services/service-errors';
import { parseOrReject } from '../http/validation';
import { CALLBACK_PAGE_HEADERS, callbackPage, wantsHtml } from './callback-page';
import { nextStepText } from './next-step';
import { TIKTOK_OAUTH_CALLBACK_PATH } from '../http/paths';
import { tiktokCallbackQuery } from '../../contract/operations';

/**
 * `GET /oauth/tiktok/callback?auth_code=…&state=…`: the owner's browser, sent back by TikTok. No admin token (the
 * browser has none): the signed, expiring, single-use `state` names the workspace and protects the exchange. Answers
 * a small page for browsers, JSON otherwise, saying what happened and the next step.
 */
export const tiktokOAuthCallbackRoutes: FastifyPluginAsync<{ connections: TikTokConnectionService }> = async (app, { connections }) => {
  async function complete(query: unknown) {
    const { auth_code: authCode, code, state } = parseOrReject(tiktokCallbackQuery, query, 'query');
    const chosenCode = authCode ?? code;
    if (chosenCode === undefined) {
      const issue = 'auth_code is required: TikTok adds it when the owner approves; start again with signalbox tiktok connect <workspace>';
      throw badRequest(issue, [issue]);
    }
    const workspaceId = claimedWorkspaceId(state);
    if (workspaceId === undefined) throw new TikTokConnectionError('state_invalid', 'state: not a state Signalbox issued (malformed)');
    return connections.completeAuthorization(workspaceId, { authCode: chosenCode, state });
  }

  function page(reply: FastifyReply, status: number, title: string, paragraphs: string[]) {
    return reply.code(status).headers(CALLBACK_PAGE_HEADERS).send(callbackPage(title, paragraphs));
  }

  app.get(TIKTOK_OAUTH_CALLBACK_PATH, async (request, reply) => {
    const html = wantsHtml(request.headers.accept);
    const state = (request.query as { state?: unknown }).state;
    // Started from the console: the person goes back to its Sources page, which shows the next step.
    const consoleSources = typeof state === 'string' && claimedActor(state)?.startsWith('user:') ? `/console/w/${encodeURIComponent(claimedWorkspaceId(state) ?? '')}/sources` : undefined;
    // Only to word the page's advice; whether the state is genuine is decided by completeAuthorization.
    const startAgain = `Start again with signalbox tiktok connect ${(typeof state === 'string' && claimedWorkspaceId(state)) || '<workspace>'} and open the new URL it prints.`;
    try {
      const view = await complete(request.query);
      const message = `TikTok is connected to workspace ${view.workspaceId}. ${nextStepText(view)}`;
      if (!html) return reply.header('cache-control', 'no-store').send({ connected: true, workspaceId: view.workspaceId, connection: view, message });
      if (consoleSources !== undefined) return reply.headers(CALLBACK_PAGE_HEADERS).redirect(`${consoleSources}?tiktok=connected`);
      return page(reply, 200, 'TikTok is connected', [`Workspace ${view.workspaceId} now holds a TikTok connection (token stored encrypted).`, nextStepText(view)]);
    } catch (error) {
      if (!html) throw error;
      const known = serviceErrorAsHttp(error);
      if (known === undefined) {
        request.log.error({ err: error }, 'TikTok OAuth callback failed');
        return page(reply, 500, 'TikTok could not be connected', ['Signalbox failed internally; the server log has the details.', startAgain]);
      }
      return page(reply, known.statusCode, 'TikTok could not be connected', [known.message, consoleSources === undefined ? startAgain : `Go back to the console (${consoleSources}) and connect again.`]);
    }
  });
};
