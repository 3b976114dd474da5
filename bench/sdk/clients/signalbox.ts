import Signalbox from '@signalbox/api';

import { FLUSH_AT } from '../workload';
import type { CreateBenchClient } from './bench-client';

export const createBenchClient: CreateBenchClient = (host, eventCount) => {
  let errors = 0;
  const client = new Signalbox({ apiKey: 'dk_bench', host, flushAt: FLUSH_AT, maxQueueSize: eventCount });
  client.on('error', (error) => (errors += error.eventCount));
  return {
    track: (event) => client.track(event),
    finish: () => client.close(),
    errors: () => errors,
  };
};
