import { PostHog } from 'posthog-node';

import { FLUSH_AT } from '../workload';
import { SHUTDOWN_TIMEOUT_MS, type CreateBenchClient } from './bench-client';

export const createBenchClient: CreateBenchClient = (host, eventCount) => {
  let errors = 0;
  const client = new PostHog('phc_bench', { host, flushAt: FLUSH_AT, maxQueueSize: eventCount });
  client.on('error', () => (errors += 1));
  return {
    track: ({ userId, event, properties }) => client.capture({ distinctId: userId, event, properties }),
    finish: () => client.shutdown(SHUTDOWN_TIMEOUT_MS),
    errors: () => errors,
  };
};
