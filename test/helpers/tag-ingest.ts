import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadTrackingScript } from '../../api/ingest/tracking-script';
import { buildTrackingScript } from '../../web/build';
import type { TestPipeline } from './pipeline';
import { buildTestApp, type TestAppOptions } from './test-app';

export interface TagIngest {
  app: FastifyInstance;
  url: string;
  /** Each start of the conversions ingest recorded, to await before reading their outcomes. */
  starts: Promise<unknown>[];
}

/** The API serving a freshly built tracking tag (built into `scratch`) on a port of its own, its conversions run by `pipeline`. */
export async function startTagIngest(pipeline: TestPipeline, scratch: string, options: TestAppOptions = {}): Promise<TagIngest> {
  const built = await buildTrackingScript(path.join(scratch, 'signalbox.js'));
  const starts: Promise<unknown>[] = [];
  const { app } = buildTestApp(pipeline.database.db, {
    repos: pipeline.repos,
    recordBatch: pipeline.recordBatch,
    startConversions: (conversions) => {
      const started = pipeline.startConversions(conversions);
      starts.push(started);
      return started;
    },
    trackingScript: loadTrackingScript(built.outfile),
    ...options,
  });
  return { app, url: await app.listen({ port: 0, host: '127.0.0.1' }), starts };
}
