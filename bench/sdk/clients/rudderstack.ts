import Analytics from '@rudderstack/rudder-sdk-node';

import { FLUSH_AT } from '../workload';
import type { CreateBenchClient } from './bench-client';

export const createBenchClient: CreateBenchClient = (host, eventCount) => {
  let errors = 0;
  const client = new Analytics('bench', {
    dataPlaneUrl: host,
    flushAt: FLUSH_AT,
    maxInternalQueueSize: eventCount,
    logLevel: 'error',
    errorHandler: () => (errors += 1),
  });
  return {
    track: (event) => {
      client.track(event);
    },
    finish: async () => {
      // flush() sends one batch of flushAt events per call, so call it until the queue is empty.
      const { queue } = client as unknown as { queue: unknown[] };
      do await client.flush();
      while (queue.length > 0);
    },
    errors: () => errors,
  };
};
