import { randomBytes } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { FAKE_TIKTOK_ACCESS_TOKEN, FAKE_TIKTOK_ADVERTISER_ID, FAKE_TIKTOK_PIXEL_CODE } from '../../devstack/tiktok-fake';
import { createRepositories } from '../../db/repositories';
import { createSecretBox } from '../../db/secret-box';
import { DEFAULT_DELIVERY_RETRY, longestProbeWaitMs } from '../../domain/delivery-retry';
import type { Infrastructure } from '../pipeline/infrastructure';

/**
 * The first attempt's in-call retries (about 7 s) and the activity's waits growing to the probe interval (1 + 2 + 4 + 8
 * + 16 s): after this the pull is retried at its cap.
 */
const TO_THE_CAP_MS = 45_000;

export interface PullRecovery {
  /** From TikTok answering again to the pull's workflow closing. */
  recoveryMs: number;
  /** Requests TikTok failed during the outage. */
  failedRequests: number;
  outageMs: number;
}

/** One statistics pull caught in an outage of TikTok's Marketing API, which recovers at a random moment once the retries are at their cap. */
export async function measurePullRecovery(infra: Infrastructure, n: number): Promise<PullRecovery> {
  const repos = createRepositories(infra.db, createSecretBox(infra.secretKey));
  const workspace = await repos.workspaces.create(`Recovery pull ${n}`);
  await repos.tiktokConnections.put(workspace.id, { accessToken: FAKE_TIKTOK_ACCESS_TOKEN, advertiserId: FAKE_TIKTOK_ADVERTISER_ID, pixelCode: FAKE_TIKTOK_PIXEL_CODE });
  const connection = await Connection.connect({ address: infra.temporalAddress });
  try {
    const requestsBefore = infra.fakeState.log.snapshot().requests.length;
    infra.fakeState.faults.add([{ httpStatus: 503, times: 1_000_000 }]);
    const outageStarts = Date.now();
    const handle = await new Client({ connection }).workflow.start('adStatsPullWorkflow', {
      taskQueue: 'signalbox',
      workflowId: `bench-recovery-pull-${randomBytes(6).toString('hex')}`,
      args: [{ workspaceId: workspace.id }],
    });
    await new Promise((resolve) => setTimeout(resolve, TO_THE_CAP_MS + Math.random() * longestProbeWaitMs(DEFAULT_DELIVERY_RETRY)));
    const recoveredAt = Date.now();
    infra.fakeState.faults.clear();
    const summary = (await handle.result()) as { status: string };
    if (summary.status !== 'pulled') throw new Error(`the pull ended ${summary.status}`);
    const { closeTime } = await handle.describe();
    const failed = infra.fakeState.log.snapshot().requests.slice(requestsBefore).filter((r) => r.answer?.httpStatus === 503);
    return { recoveryMs: (closeTime as Date).getTime() - recoveredAt, failedRequests: failed.length, outageMs: recoveredAt - outageStarts };
  } finally {
    await connection.close();
  }
}
