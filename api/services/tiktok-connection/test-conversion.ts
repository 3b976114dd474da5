import { randomUUID } from 'node:crypto';
import type { TikTokClient, TikTokTrackRequest } from '../../../adplatform/tiktok';
import type { TestConversionView } from '../../../contract/tiktok-views';
import type { Repositories } from '../../../db/repositories';
import { sha256Hex } from '../../../domain/hashing';
import { TikTokConnectionError } from './errors';

/**
 * Spec §4.5 step 4: sends one test conversion (a CompletePayment of 1.00 USD) with the workspace's
 * `test_event_code`, so the owner can check TikTok's Test Events view, and reports TikTok's answer as it came.
 */
export function createTestConversionSender(deps: { repos: Pick<Repositories, 'workspaces' | 'tiktokConnections'>; tiktok: TikTokClient; now?: () => Date }) {
  const now = deps.now ?? (() => new Date());
  return async function sendTestConversion(workspaceId: string): Promise<TestConversionView> {
    const workspace = await deps.repos.workspaces.find(workspaceId);
    if (workspace === undefined) throw new TikTokConnectionError('workspace_not_found', `workspace ${workspaceId} does not exist`);
    if (workspace.testEventCode === null) {
      throw new TikTokConnectionError('test_event_code_missing', 'testEventCode: set the code shown in TikTok Events Manager → Test Events first');
    }
    const connection = await deps.repos.tiktokConnections.withToken(workspaceId);
    if (connection === undefined) throw new TikTokConnectionError('not_connected', 'this workspace has no TikTok connection');
    if (connection.pixelCode === null) throw new TikTokConnectionError('pixel_not_selected', 'select the pixel that receives events first');

    const eventId = `signalbox-test-${randomUUID()}`;
    const body: TikTokTrackRequest = {
      event_source: 'web',
      event_source_id: connection.pixelCode,
      test_event_code: workspace.testEventCode,
      data: [
        {
          event: 'CompletePayment',
          event_time: Math.floor(now().getTime() / 1000),
          event_id: eventId,
          user: { external_id: sha256Hex(`signalbox-test-${workspaceId}`) },
          properties: { value: 1, currency: 'USD', content_type: 'product', contents: [{ content_id: 'signalbox-test', quantity: 1, price: 1 }] },
        },
      ],
    };
    const result = await deps.tiktok.trackEvents(connection.accessToken, body);
    if (result.outcome === 'permanent' && result.tokenInvalid) await deps.repos.tiktokConnections.markReauthorizationRequired(workspaceId);
    return {
      accepted: result.outcome === 'success',
      code: result.code ?? null,
      message: result.message,
      requestId: result.requestId ?? null,
      testEventCode: workspace.testEventCode,
      pixelCode: connection.pixelCode,
      eventId,
    };
  };
}

export type SendTestConversion = ReturnType<typeof createTestConversionSender>;
