import Signalbox from '@signalbox/api';

import { FLUSH_AT } from '../workload';
import { SHUTDOWN_TIMEOUT_MS, type CreateBenchClient } from './bench-client';

export const createBenchClient: CreateBenchClient = (host, eventCount) => {
  let errors = 0;
  const client = new Signalbox({ apiKey: 'dk_bench', host, flushAt: FLUSH_AT, maxQueueSize: eventCount });
  client.on('error', (error) => (errors += error.eventCount));
  return {
    track: (event) => client.track(event),
    finish: async () => {
      await client.close({ timeoutMs: SHUTDOWN_TIMEOUT_MS });
    },
    errors: () => errors,
  };
};
