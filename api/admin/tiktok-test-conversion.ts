import type { FastifyPluginAsync } from 'fastify';
import type { SendTestConversion } from '../services/tiktok-connection';
import { workspaceOf } from './workspace-scope';

/**
 * `POST /admin/workspaces/:workspaceId/tiktok/test-conversion` (spec §4.5 step 4): sends one test conversion with the
 * workspace's `test_event_code` and answers TikTok's verdict as it came (`accepted`, `code`, `message`, `requestId`),
 * with 200 whichever it was: the request to Signalbox succeeded, TikTok's answer is the content.
 */
export const tiktokTestConversionRoutes: FastifyPluginAsync<{ sendTestConversion: SendTestConversion }> = async (app, { sendTestConversion }) => {
  app.post('/test-conversion', async (request) => sendTestConversion(workspaceOf(request).id));
};
