import { WorkflowFailedError } from '@temporalio/client';
import type { Repositories } from '../../../db/repositories';
import type { TestAlertOutcome, TestAlertSender } from '../../../temporal/test-alerts';
import { HttpError } from '../../http/http-error';
import type { Actor } from '../settings/actor';

/**
 * "Send a test alert" for the console and the settings API: through the saved channels, on a worker (where alerts are
 * sent), answering how each channel fared; the change log keeps who sent one and how it went.
 */
export function createTestAlertService(deps: { repos: Pick<Repositories, 'alertSettings' | 'changeLog'>; send: TestAlertSender }) {
  return {
    /** `requestedBy`: how the message names who asked (their email, or "the operator"). */
    async send(actor: Actor, workspaceId: string, requestedBy: string): Promise<{ outcomes: TestAlertOutcome[] }> {
      const settings = await deps.repos.alertSettings.get(workspaceId);
      if (!settings.emailEnabled && settings.webhookUrl === null) {
        throw new HttpError(409, 'no_alert_channel', 'alerts go nowhere yet: tick Email or Webhook and save the alerts, then send a test alert');
      }
      let outcomes: TestAlertOutcome[];
      try {
        outcomes = await deps.send({ workspaceId, requestedBy });
      } catch (error) {
        if (!(error instanceof WorkflowFailedError)) throw error;
        throw new HttpError(503, 'worker_unavailable', 'no worker sent the test alert in time: alerts are sent by the worker process, so check that it runs');
      }
      const channels = (sent: boolean) => outcomes.filter((o) => o.sent === sent).map((o) => o.channel);
      await deps.repos.changeLog.record({ workspaceId, actor, action: 'alerts.test', after: { sent: channels(true), notSent: channels(false) } });
      return { outcomes };
    },
  };
}

export type TestAlertService = ReturnType<typeof createTestAlertService>;
