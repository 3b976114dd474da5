import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { keyFromBody, keyFromHeadersOrQuery, type PresentedKey } from './auth/api-key-source';
import type { CredentialCache, IngestCredential } from './auth/credential-cache';
import { checkKeyUse } from './auth/key-policy';
import { decompressBody } from './decompress';
import { jsonBodyParser } from '../http/json-body';
import { IngestRefusal } from '../http/ingest-refusal';
import { MAX_BATCH_BYTES } from '../http/limits';
import type { IngestMetrics } from '../http/metrics';
import type { KeyUseLog } from './key-use';
import type { BatchRecorder } from './record-batch';
import { acceptedAnswer, createAfterCommit, type StartConversions } from './after-commit';
import type { RefusalLog } from './refusal-log';
import { createStorageBudget, type StorageBudget } from './storage-deadline';
import { allowOrigin } from './cors';
import { firstPartyCookies } from './first-party-cookies';
import { parseBatch, parseSingle, type MessageType, type ParsedMessages } from './parse-messages';
import { createRateLimiter, type RateLimitSettings } from './rate-limit';

export type { StartConversions } from './after-commit';

export interface IngestRoutesOptions {
  credentials: CredentialCache;
  recordBatch: BatchRecorder;
  startConversions: StartConversions;
  metrics: IngestMetrics;
  rateLimit: RateLimitSettings;
  /** A request's storage work (key lookup, connection, commit) past this many milliseconds is answered 503. */
  storageDeadlineMs: number;
  /** Requests refused for a known workspace, for the console's event debugger. */
  refusals?: RefusalLog;
  /** Browser keys' accepted use and origin, for the console's setup checklist. */
  keyUse?: KeyUseLog;
}

declare module 'fastify' {
  interface FastifyRequest {
    ingestCredential: IngestCredential | null;
    storageBudget: StorageBudget | null;
  }
}

const SINGLE_MESSAGE_TYPES: readonly MessageType[] = ['track', 'identify', 'page', 'screen', 'group', 'alias'];
/** Segment's browser library posts one message to `/v1/<first letter of its type>`, its mobile libraries batch to `/v1/b`. */
const SEGMENT_SHORT_PATHS: Readonly<Record<string, MessageType>> = { t: 'track', i: 'identify', p: 'page', s: 'screen', g: 'group', a: 'alias' };

async function authenticate(credentials: CredentialCache, budget: StorageBudget, request: FastifyRequest, reply: FastifyReply, { key, source }: PresentedKey): Promise<IngestCredential> {
  const credential = credentials.cached(key) ?? (await budget.run(() => credentials.resolve(key)));
  if (credential === undefined) throw new IngestRefusal('unknown_key', 'API key is unknown or revoked');
  // Known before the checks below, so that a refusal is shown to the key's workspace (event debugger).
  request.ingestCredential = credential;
  const readableBy = checkKeyUse(credential.apiKey, credential.workspace, { origin: request.headers.origin, source });
  if (readableBy !== undefined) allowOrigin(reply, readableBy);
  const claimed = request.headers['x-workspace-id'];
  if (claimed !== undefined && String(claimed) !== credential.workspace.id) {
    throw new IngestRefusal('workspace_mismatch', `X-Workspace-Id ${String(claimed)} does not match the workspace of this API key`);
  }
  return credential;
}

/** The Segment-compatible ingest API (DESIGN.md "Wire contract of the ingest API"). */
export const ingestRoutes: FastifyPluginAsync<IngestRoutesOptions> = async (app, options) => {
  const { credentials, recordBatch } = options;
  const committed = createAfterCommit(options.metrics, options.startConversions);
  app.decorateRequest('ingestCredential', null);
  app.decorateRequest('storageBudget', null);
  const budgetOf = (request: FastifyRequest) => (request.storageBudget ??= createStorageBudget(options.storageDeadlineMs));
  const rateLimiter = createRateLimiter(options.rateLimit);
  // A key in the header or the URL is checked before the body is read; one in the body (sendBeacon, Segment's
  // browser library) once it is parsed.
  app.addHook('onRequest', async (request, reply) => {
    const presented = keyFromHeadersOrQuery(request);
    if (presented === undefined) return;
    const { workspace } = await authenticate(credentials, budgetOf(request), request, reply, presented);
    rateLimiter.take(workspace.id);
  });
  app.addHook('preValidation', async (request, reply) => {
    if (request.ingestCredential !== null) return;
    const { workspace } = await authenticate(credentials, budgetOf(request), request, reply, keyFromBody(request.body));
    rateLimiter.take(workspace.id);
  });
  app.addHook('preParsing', decompressBody(MAX_BATCH_BYTES));
  const { refusals } = options;
  if (refusals !== undefined) app.addHook('onError', async (request, _reply, error) => refusals.refused(request, error));
  // Every body is JSON whatever its Content-Type, as on Segment's and RudderStack's servers: browser libraries send
  // text/plain to avoid a CORS preflight, RudderStack's Node library application/x-www-form-urlencoded.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, jsonBodyParser(app));

  /** `receivedAt` is the instant the messages were checked against, clock-skew correction included. */
  async function accept(request: FastifyRequest, reply: FastifyReply, parse: (receivedAt: Date) => ParsedMessages) {
    const { workspace, apiKey } = request.ingestCredential as IngestCredential;
    const receivedAt = new Date();
    const { messages, sentAt } = parse(receivedAt);
    const receipt = { receivedAt, sentAt, fromAppKey: apiKey.kind === 'app', deviceIp: apiKey.kind === 'secret' ? undefined : request.ip };
    const result = await budgetOf(request).run((signal) => {
      const recording = recordBatch(workspace, messages, receipt, signal);
      // Also when the commit lands after the deadline's 503: its conversions are woken now, and the client's retry
      // finds its events stored (duplicates).
      void recording.then((stored) => committed(messages.length, stored, request.log), () => undefined);
      return recording;
    });
    // The tracking script's same-site mode: its identifiers become server-set first-party cookies.
    if (apiKey.kind === 'browser') {
      // checkKeyUse let a browser key through only with an allowed Origin.
      if (request.headers.origin !== undefined) options.keyUse?.used(apiKey.id, request.headers.origin);
      const cookies = firstPartyCookies(request.body, request.headers.origin, workspace);
      if (cookies.length > 0) reply.header('set-cookie', cookies);
    }
    return acceptedAnswer(result);
  }

  for (const path of ['/v1/batch', '/v1/b']) {
    app.post(path, { bodyLimit: MAX_BATCH_BYTES }, async (request, reply) => accept(request, reply, (receivedAt) => parseBatch(request.body, receivedAt)));
  }
  for (const type of SINGLE_MESSAGE_TYPES) {
    app.post(`/v1/${type}`, { bodyLimit: MAX_BATCH_BYTES }, async (request, reply) => accept(request, reply, (receivedAt) => parseSingle(request.body, type, receivedAt)));
  }
  for (const [letter, type] of Object.entries(SEGMENT_SHORT_PATHS)) {
    app.post(`/v1/${letter}`, { bodyLimit: MAX_BATCH_BYTES }, async (request, reply) => accept(request, reply, (receivedAt) => parseSingle(request.body, type, receivedAt)));
  }
};
