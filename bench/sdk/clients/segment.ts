import { Analytics } from '@segment/analytics-node';

import { FLUSH_AT } from '../workload';
import { SHUTDOWN_TIMEOUT_MS, type CreateBenchClient } from './bench-client';

export const createBenchClient: CreateBenchClient = (host) => {
  let errors = 0;
  // No queue limit to raise: Segment's queue is unbounded.
  const client = new Analytics({ writeKey: 'bench', host, flushAt: FLUSH_AT });
  client.on('error', () => (errors += 1));
  return {
    track: (event) => client.track(event),
    finish: () => client.closeAndFlush({ timeout: SHUTDOWN_TIMEOUT_MS }),
    errors: () => errors,
  };
};
