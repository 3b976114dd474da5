import type { DestinationStream } from 'pino';
import { ingestEnvSchema, loadEnv } from '../../config/env';
import { startIngestServer, type RunningIngest } from '../../api/server';
import { TEST_ADMIN_TOKEN, TEST_PUBLIC_URL, TEST_SECRET_KEY } from './test-app';
import { trackingScriptFrom } from '../../api/ingest/tracking-script';

/** The ingest server as `node dist/api/server.js` runs it, listening on a free port, configured like the process. */
export async function startTestIngestServer(
  databaseUrl: string,
  { env = {}, logDestination }: { env?: Record<string, string>; logDestination?: DestinationStream } = {},
): Promise<RunningIngest> {
  const temporalAddress = process.env.TEMPORAL_TEST_ADDRESS;
  if (temporalAddress === undefined) throw new Error('TEMPORAL_TEST_ADDRESS is not set: run integration tests through jest --selectProjects integration');
  const config = loadEnv(ingestEnvSchema, {
    DATABASE_URL: databaseUrl,
    PORT: '0',
    HOST: '127.0.0.1',
    PUBLIC_URL: TEST_PUBLIC_URL,
    ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    SECRET_KEY: TEST_SECRET_KEY,
    TEMPORAL_ADDRESS: temporalAddress,
    // Nothing listens on the discard port: no test reaches the real TikTok.
    TIKTOK_API_URL: 'http://127.0.0.1:9',
    LOG_LEVEL: 'silent',
    ...env,
  });
  return startIngestServer(config, { logDestination, trackingScript: trackingScriptFrom(Buffer.from('/* tracking script */')) });
}
