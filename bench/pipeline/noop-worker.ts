import { NativeConnection, Worker } from '@temporalio/worker';

/** The ceiling run's worker process: SDK default tuning, exactly like the Signalbox worker. */
async function main(): Promise<void> {
  const worker = await Worker.create({
    connection: await NativeConnection.connect({ address: process.env.TEMPORAL_ADDRESS as string }),
    taskQueue: process.env.TEMPORAL_TASK_QUEUE as string,
    workflowsPath: require.resolve('./noop-workflow'),
    activities: { noop: async () => undefined },
  });
  await worker.run();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
