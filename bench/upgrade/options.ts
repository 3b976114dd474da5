import type { HealthCheck } from './balancer';
import type { UpgradeOptions } from './upgrade';

const SECOND = 1000;

/** The load balancer's health check that OPERATIONS.md's release sequence relies on ("Probes and shutdown"). */
export const HEALTH_CHECK: HealthCheck = { everyMs: 2 * SECOND, rise: 2, fall: 2 };
/** How long a process that can no longer serve stays in rotation: its schema answer going stale, then `fall` probes. */
export const OUT_OF_ROTATION_WITHIN_MS = 2 * SECOND + HEALTH_CHECK.everyMs * HEALTH_CHECK.fall;

/** `npm run test:upgrade`: 45 s of load before the first step and after the last (UPGRADE_BEFORE_SECONDS, UPGRADE_AFTER_SECONDS). */
export function upgradeOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): UpgradeOptions {
  return {
    beforeMs: Number(env.UPGRADE_BEFORE_SECONDS ?? 45) * SECOND,
    afterMs: Number(env.UPGRADE_AFTER_SECONDS ?? 45) * SECOND,
    journeysPerSecond: Number(env.UPGRADE_JOURNEYS_PER_SECOND ?? 4),
    healthCheck: HEALTH_CHECK,
    refusalLimitMs: OUT_OF_ROTATION_WITHIN_MS,
    deliveryPauseGoalMs: 15 * SECOND,
    drainMs: 3 * 60 * SECOND,
  };
}

/** The run `npm test` makes (test/upgrade.integration.test.ts): 20 s either side of the upgrade. */
export const SHORT_UPGRADE: UpgradeOptions = { ...upgradeOptionsFromEnv({}), beforeMs: 20 * SECOND, afterMs: 20 * SECOND };
