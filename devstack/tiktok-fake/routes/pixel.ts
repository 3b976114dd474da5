import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { dedupKey } from '../dedup-store';
import { PIXEL_STAND_IN_SCRIPT } from '../pixel-stand-in';
import type { FakeTikTokState } from '../state';
import { badRequest } from './bad-request';

export const PIXEL_SCRIPT_PATH = '/i18n/pixel/events.js';
export const PIXEL_REPORT_PATH = '/i18n/pixel/report';

const record = z.record(z.string(), z.unknown());
const reportSchema = z
  .strictObject({
    pixelCode: z.string().min(1, 'must be the pixel code the script was loaded for'),
    method: z.enum(['page', 'track', 'identify']),
    event: z.string().min(1, 'must not be empty').optional(),
    eventId: z.string().min(1, 'must not be empty').optional(),
    properties: record.default({}),
    options: record.default({}),
    loadOptions: record.default({}),
    url: z.url({ error: 'must be the URL of the page the call was made on' }),
    ttp: z.string().min(1, 'must not be empty; null when no _ttp cookie was set').nullable(),
    identity: z
      .strictObject({ email: z.string().optional(), phone_number: z.string().optional(), external_id: z.string().optional() })
      .default({}),
  })
  .superRefine((report, context) => {
    if (report.method !== 'identify' && report.event === undefined) {
      context.addIssue({ code: 'custom', path: ['event'], message: `is required for ${report.method}` });
    }
    if (report.method === 'identify' && (report.event ?? report.eventId) !== undefined) {
      context.addIssue({ code: 'custom', path: ['event'], message: 'identify carries no event or eventId' });
    }
  });

/**
 * The pixel stand-in: its script, and the report route its calls arrive at. Pages of any origin load and call them,
 * as they do TikTok's, so both answer with open CORS; the report takes any content type (the script sends text/plain
 * to stay a simple request, without preflight).
 */
export function registerPixelRoutes(app: FastifyInstance, state: FakeTikTokState): void {
  app.register(async (pixel) => {
    pixel.removeAllContentTypeParsers();
    pixel.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    pixel.addHook('onSend', async (_request, reply) => {
      reply.header('access-control-allow-origin', '*');
    });

    pixel.get(PIXEL_SCRIPT_PATH, (_request, reply) =>
      reply.type('application/javascript; charset=utf-8').header('cache-control', 'no-store').send(PIXEL_STAND_IN_SCRIPT),
    );

    pixel.options(PIXEL_REPORT_PATH, (_request, reply) =>
      reply.code(204).header('access-control-allow-methods', 'POST').header('access-control-allow-headers', 'content-type').send(),
    );

    pixel.post(PIXEL_REPORT_PATH, (request, reply) => {
      let body: unknown;
      try {
        body = JSON.parse(typeof request.body === 'string' ? request.body : '');
      } catch {
        return reply.code(400).send({ error: 'body: must be a JSON object' });
      }
      const parsed = reportSchema.safeParse(body);
      if (!parsed.success) return badRequest(reply, parsed.error);
      const report = parsed.data;
      const now = state.clock.now();
      state.log.addPixelCall({
        ...report,
        receivedAt: now.toISOString(),
        deduplicated:
          report.event !== undefined &&
          report.eventId !== undefined &&
          state.dedup.isDuplicate(dedupKey({ test: false, pixelCode: report.pixelCode, event: report.event, eventId: report.eventId }), now.getTime()),
      });
      return reply.code(204).send();
    });
  });
}
