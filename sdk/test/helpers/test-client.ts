import { Signalbox } from '../../src/client.js';
import type { SignalboxConfig } from '../../src/config.js';
import type { SignalboxDeliveryError } from '../../src/errors.js';
import { TestTransport } from './test-transport.js';

export const TEST_API_KEY = 'dk_test_0123456789';

export interface TestClient {
  client: Signalbox;
  transport: TestTransport;
  /** Lines the client logged (debug output). */
  logs: string[];
  /** Errors given to the client's `error` listener. */
  errors: SignalboxDeliveryError[];
}

const open: Signalbox[] = [];

/** A client on a TestTransport, logging into an array; `closeTestClients()` closes them all after each test. */
export function createTestClient(config: Partial<SignalboxConfig> = {}): TestClient {
  const transport = new TestTransport();
  const logs: string[] = [];
  const errors: SignalboxDeliveryError[] = [];
  const client = new Signalbox({
    apiKey: TEST_API_KEY,
    host: 'https://ingest.test',
    transport,
    logger: (line) => logs.push(line),
    ...config,
  });
  client.on('error', (error) => errors.push(error));
  open.push(client);
  return { client, transport, logs, errors };
}

/**
 * Closes every client made by createTestClient, so no beforeExit listener or timer outlives its test. Not awaited:
 * a test that left a request hanging on purpose must not hang the suite.
 */
export function closeTestClients(): void {
  for (const client of open.splice(0)) client.close().catch(() => undefined);
}
