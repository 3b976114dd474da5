import type { FastifyBaseLogger, FastifyError, FastifyRequest } from 'fastify';
import type { Repositories } from '../../db/repositories';
import { hashApiKey } from '../../db/repositories/api-keys';
import { keyFromBody, keyFromHeadersOrQuery } from './auth/api-key-source';
import type { IngestCredential } from './auth/credential-cache';
import { serviceErrorAsHttp } from '../services/service-errors';
import { createBackgroundWrites } from './background-writes';
import { IngestRefusal, type RefusalReason } from '../http/ingest-refusal';

/** Per workspace and process: a flood of bad requests must not become a flood of writes. */
const MAX_PER_SECOND = 20;
const KEEP_MS = 86_400_000;
const PRUNE_EVERY_MS = 10 * 60_000;
/** A refusal that would amplify a flood; server errors are in the server's log, not the sender's fault. */
const NOT_RECORDED = new Set([429]);

/** The status of a refusal worth recording (4xx but 429), else undefined. */
export function refusalStatus(error: FastifyError): number | undefined {
  const status = serviceErrorAsHttp(error)?.statusCode ?? error.statusCode ?? 500;
  return status < 400 || status >= 500 || NOT_RECORDED.has(status) ? undefined : status;
}

/** What one refused request's row records, but for where it came from. */
interface Refusal {
  status: number;
  error: string;
  message: string;
  issues: readonly string[] | null;
  reason: string | null;
}

function presentedKey(request: FastifyRequest): string | undefined {
  try {
    return keyFromHeadersOrQuery(request)?.key ?? keyFromBody(request.body).key;
  } catch {
    return undefined;
  }
}

/**
 * Records requests ingest refused, for the console's event debugger (spec §7.6), when the workspace is known: from
 * the key that authenticated (invalid fields, workspace mismatch, origin not allowed), a revoked key's own workspace,
 * or the `X-Workspace-Id` of an unknown key. Only on the error path, throttled, written in the background and pruned
 * to a day; a failure to record is logged and never changes the answer.
 */
export function createRefusalLog(deps: { repos: Pick<Repositories, 'ingestRefusals' | 'apiKeys' | 'workspaces'>; log: FastifyBaseLogger; now?: () => number }) {
  const now = deps.now ?? Date.now;
  const windows = new Map<string, { second: number; count: number }>();
  const writes = createBackgroundWrites();
  let lastPrune = 0;

  function admit(workspaceId: string): boolean {
    const second = Math.floor(now() / 1000);
    const window = windows.get(workspaceId);
    if (window === undefined || window.second !== second) {
      if (windows.size > 10_000) windows.clear();
      windows.set(workspaceId, { second, count: 1 });
      return true;
    }
    window.count += 1;
    return window.count <= MAX_PER_SECOND;
  }

  async function workspaceOf(request: FastifyRequest, key: string | undefined): Promise<string | undefined> {
    const credential = request.ingestCredential as IngestCredential | null;
    if (credential !== null) return credential.workspace.id;
    if (key !== undefined) {
      const row = await deps.repos.apiKeys.findAnyByHash(hashApiKey(key));
      if (row !== undefined) return row.workspaceId;
    }
    const claimed = request.headers['x-workspace-id'];
    if (typeof claimed !== 'string' || claimed.length > 100) return undefined;
    return (await deps.repos.workspaces.find(claimed))?.id;
  }

  function refusalOf(error: FastifyError, status: number): Refusal {
    const known = serviceErrorAsHttp(error);
    return {
      status,
      error: known?.code ?? (status === 400 ? 'invalid_request' : `http_${status}`),
      message: known?.message ?? error.message,
      issues: known?.issues ?? null,
      reason: error instanceof IngestRefusal ? error.reason : null,
    };
  }

  /** `knownWorkspaceId`: the route's own (a webhook source's), which no key names. */
  async function record(request: FastifyRequest, refusal: Refusal, knownWorkspaceId?: string): Promise<void> {
    const key = knownWorkspaceId === undefined ? presentedKey(request) : undefined;
    const workspaceId = knownWorkspaceId ?? (await workspaceOf(request, key));
    if (workspaceId === undefined || !admit(workspaceId)) return;
    await deps.repos.ingestRefusals.record([
      {
        workspaceId,
        status: refusal.status,
        error: refusal.error,
        message: refusal.message.slice(0, 2000),
        issues: refusal.issues === null ? null : refusal.issues.slice(0, 50),
        path: request.url.split('?')[0]?.slice(0, 200) ?? '',
        keyPrefix: key === undefined ? null : key.slice(0, 9),
        origin: request.headers.origin?.slice(0, 200) ?? null,
        reason: refusal.reason,
      },
    ]);
    if (now() - lastPrune > PRUNE_EVERY_MS) {
      lastPrune = now();
      await deps.repos.ingestRefusals.prune(new Date(now() - KEEP_MS));
    }
  }

  function recordInBackground(request: FastifyRequest, refusal: Refusal, knownWorkspaceId?: string): void {
    const write = record(request, refusal, knownWorkspaceId).catch((failure: unknown) => deps.log.warn({ err: failure }, 'could not record a refused request for the event debugger'));
    writes.track(write);
  }

  return {
    /**
     * For an `onError` hook of the ingest routes (it runs before the answer is made): never throws, never waits.
     * `knownWorkspaceId`: the workspace the route already knows (a webhook source's); else the key's.
     */
    refused(request: FastifyRequest, error: FastifyError, knownWorkspaceId?: string): void {
      const status = refusalStatus(error);
      if (status !== undefined) recordInBackground(request, refusalOf(error, status), knownWorkspaceId);
    },

    /**
     * A verified webhook delivery answered 200 though nothing of it was stored (a Shopify source's: Shopify retries any
     * other answer, then drops the delivery): recorded with that answer, what was wrong and why. Never throws, never waits.
     */
    acknowledged(request: FastifyRequest, workspaceId: string, refusal: { reason: RefusalReason; message: string; issues?: readonly string[] }): void {
      recordInBackground(request, { status: 200, error: 'not_stored', message: refusal.message, issues: refusal.issues ?? null, reason: refusal.reason }, workspaceId);
    },

    /** Waits for the writes under way, so that closing the app does not close the database under them. */
    drain: writes.drain,
  };
}

export type RefusalLog = ReturnType<typeof createRefusalLog>;
