import pino from 'pino';
import { z } from 'zod';
import { ConfigError, loadEnv } from '../../config/env';
import { FAKE_TIKTOK_ACCESS_TOKEN, FAKE_TIKTOK_ADVERTISER_ID, FAKE_TIKTOK_PIXEL_CODE } from './seed';
import { startFakeTikTok } from './start';

/** Launcher for the dev stack: `node dist/devstack/tiktok-fake/main.js`. */

const NOT_A_PORT = 'must be a port number from 0 to 65535';
const envSchema = z.object({
  PORT: z.coerce.number({ error: NOT_A_PORT }).int(NOT_A_PORT).min(0, NOT_A_PORT).max(65535, NOT_A_PORT).default(9099),
  HOST: z.string().min(1).default('127.0.0.1'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

async function main(): Promise<void> {
  const env = loadEnv(envSchema);
  const logger = pino({ level: env.LOG_LEVEL, name: 'tiktok-fake' });
  const fake = await startFakeTikTok({ port: env.PORT, host: env.HOST, logger });
  logger.info(
    {
      url: fake.url,
      advertiserId: FAKE_TIKTOK_ADVERTISER_ID,
      pixelCode: FAKE_TIKTOK_PIXEL_CODE,
      accessToken: FAKE_TIKTOK_ACCESS_TOKEN,
    },
    'fake TikTok API listening',
  );
  const stop = (signal: NodeJS.Signals): void => {
    logger.info({ signal }, 'fake TikTok API stopping');
    fake.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'fake TikTok API did not close cleanly');
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
