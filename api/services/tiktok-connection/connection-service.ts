import type { Knex } from 'knex';
import { EVENT_SET_NAMES, type EventSetKind } from '../../../contract/event-set-kinds';
import type { EventSetChoiceView, PixelChoiceView, TikTokNextStep } from '../../../contract/tiktok-views';
import type { TikTokCallResult, TikTokClient, TikTokPermanent, TikTokPixel, TikTokRetryable } from '../../../adplatform/tiktok';
import { TIKTOK_LIMITS } from '../../../adplatform/tiktok';
import type { Repositories } from '../../../db/repositories';
import type { TikTokConnectionSummary } from '../../../db/repositories/tiktok-connections';
import type { AccessibleAdvertiser } from '../../../db/types';
import type { AdStatsScheduleInfo, AdStatsSchedules } from '../../../temporal/ad-stats-schedules';
import { TikTokConnectionError } from './errors';
import { fetchEventSets, grantLacksListPermission, refusedForPermission } from './event-sets';
import type { OAuthStateSigner } from './oauth-state';
import { EVENT_SET_PERMISSIONS, missingPermissions, normalizeScopes, type TikTokPermissionKey } from './permissions';

/** The Marketing API app (env `TIKTOK_APP_ID`, `TIKTOK_APP_SECRET`, `TIKTOK_OAUTH_REDIRECT_URI`, `TIKTOK_AUTH_URL`). */
export interface TikTokOAuthApp {
  appId?: string;
  secret?: string;
  redirectUri?: string;
  /** Authorization page, e.g. `https://business-api.tiktok.com/portal/auth`. */
  authUrl: string;
}

export interface TikTokConnectionServiceDeps {
  repos: Pick<Repositories, 'tiktokConnections' | 'oauthStates' | 'workspaces' | 'changeLog'>;
  /** Runs a connection write and its change-log entry in one transaction. */
  transaction: <T>(work: (trx: Knex) => Promise<T>) => Promise<T>;
  tiktok: TikTokClient;
  oauth: TikTokOAuthApp;
  states: OAuthStateSigner;
  schedules: Pick<AdStatsSchedules, 'ensure' | 'remove' | 'describe' | 'trigger'>;
  /** Called once a new token is stored: conversions that failed because TikTok refused the old one are sent again. */
  onTokenStored?: (workspaceId: string) => Promise<unknown>;
  now?: () => Date;
}

/** What the settings API shows: the stored connection, what it lacks, and its statistics schedule. Never the token. */
export interface TikTokConnectionView extends TikTokConnectionSummary {
  /** Required permissions TikTok did not grant (empty for a manual token, whose permissions are unknown). */
  missingPermissions: TikTokPermissionKey[];
  /** The owner's next step, or null when the connection is complete. */
  nextStep: TikTokNextStep;
}

export interface AuthorizationUrl {
  url: string;
  state: string;
  expiresAt: Date;
}

export interface ManualConnectionInput {
  /** An Events API token generated in TikTok Events Manager (or any long-term token). */
  accessToken: string;
  advertiserId: string | null;
  pixelCode: string;
}

function view(summary: TikTokConnectionSummary): TikTokConnectionView {
  const nextStep =
    summary.status === 'reauthorization_required'
      ? 'reauthorize'
      : summary.advertiserId === null && summary.source === 'oauth'
        ? 'select_advertiser'
        : summary.pixelCode === null
          ? 'select_pixel'
          : null;
  return { ...summary, missingPermissions: summary.grantedScopes === null ? [] : missingPermissions(summary.grantedScopes), nextStep };
}

/** What the change log keeps of a connection: never the token. */
function connectionRecord(summary: TikTokConnectionSummary) {
  const { source, status, advertiserId, advertiserName, pixelCode, pixelName, appId, offlineEventSetId, offlineEventSetName, crmEventSetId, crmEventSetName } = summary;
  return { source, status, advertiserId, advertiserName, pixelCode, pixelName, appId, offlineEventSetId, offlineEventSetName, crmEventSetId, crmEventSetName };
}

const tiktokDetails = (result: TikTokRetryable | TikTokPermanent) => ({ tiktokCode: result.code ?? null, tiktokMessage: result.message, requestId: result.requestId ?? null });

function tiktokFailure(what: string, result: TikTokRetryable | TikTokPermanent): TikTokConnectionError {
  const details = tiktokDetails(result);
  if (result.outcome === 'retryable') return new TikTokConnectionError('tiktok_unavailable', `${what}: TikTok is unavailable (${result.message}); try again`, details);
  if (result.tokenInvalid) return new TikTokConnectionError('token_invalid', `${what}: TikTok refused the access token (${result.message}); reconnect TikTok`, details);
  return new TikTokConnectionError('tiktok_rejected', `${what}: TikTok refused (${result.code ?? 'HTTP'}: ${result.message})`, details);
}

/**
 * Every step of connecting a workspace to TikTok, for the settings API and the CLI: the OAuth round trip, choosing
 * the advertiser, the pixel and the Offline and CRM Event Sets, manual token entry, disconnecting, and the statistics
 * schedule that follows the connection. Failures throw TikTokConnectionError (its `code` and `httpStatus` say what happened).
 */
export function createTikTokConnectionService(deps: TikTokConnectionServiceDeps) {
  const now = deps.now ?? (() => new Date());
  const { tiktokConnections, oauthStates } = deps.repos;

  function app(): { appId: string; secret: string; redirectUri: string } {
    const { appId, secret, redirectUri } = deps.oauth;
    const missing = [
      appId === undefined && 'TIKTOK_APP_ID',
      secret === undefined && 'TIKTOK_APP_SECRET',
      redirectUri === undefined && 'TIKTOK_OAUTH_REDIRECT_URI',
    ].filter((name): name is string => name !== false);
    if (appId === undefined || secret === undefined || redirectUri === undefined) {
      throw new TikTokConnectionError('oauth_not_configured', `TikTok OAuth is not configured: set ${missing.join(', ')} (a manual token still works)`);
    }
    return { appId, secret, redirectUri };
  }

  /** Writes the connection and logs who changed it, before and after, in one transaction. */
  async function logged(workspaceId: string, actor: string, action: string, write: (trx: Knex) => Promise<TikTokConnectionSummary | undefined>) {
    return deps.transaction(async (trx) => {
      const before = await tiktokConnections.summary(workspaceId, trx);
      const after = await write(trx);
      if (after !== undefined) {
        await deps.repos.changeLog.record({ workspaceId, actor, action, target: 'tiktok', before: before ? connectionRecord(before) : null, after: connectionRecord(after) }, trx);
      }
      return after;
    });
  }

  async function connection(workspaceId: string) {
    const found = await tiktokConnections.withToken(workspaceId);
    if (found === undefined) throw new TikTokConnectionError('not_connected', 'this workspace has no TikTok connection');
    return found;
  }

  async function requireWorkspace(workspaceId: string): Promise<void> {
    if ((await deps.repos.workspaces.find(workspaceId)) === undefined) {
      throw new TikTokConnectionError('workspace_not_found', `workspace ${workspaceId} does not exist`);
    }
  }

  /** A refused token marks the connection, so deliveries and pulls stop until the owner reconnects. */
  async function unwrap<T>(workspaceId: string, what: string, result: TikTokCallResult<T>): Promise<T> {
    if (result.outcome === 'success') return result.body.data as T;
    if (result.outcome === 'permanent' && result.tokenInvalid) await tiktokConnections.markReauthorizationRequired(workspaceId);
    throw tiktokFailure(what, result);
  }

  async function accessibleAdvertisers(accessToken: string, advertiserIds: readonly string[], credentials: { appId: string; secret: string }): Promise<AccessibleAdvertiser[]> {
    const listed = await deps.tiktok.listAdvertisers(accessToken, credentials);
    const names = new Map(listed.outcome === 'success' ? (listed.body.data?.list ?? []).map((a) => [String(a.advertiser_id), a.advertiser_name]) : []);
    // The exchange's advertiser_ids are authoritative; the list only adds names (it needs Ad Account Management).
    const ids = advertiserIds.length > 0 ? advertiserIds : [...names.keys()];
    return ids.map((advertiserId) => ({ advertiserId, advertiserName: names.get(advertiserId) ?? '' }));
  }

  async function listPixels(workspaceId: string): Promise<PixelChoiceView[]> {
    const current = await connection(workspaceId);
    if (current.advertiserId === null) throw new TikTokConnectionError('advertiser_not_selected', 'select the advertiser before its pixel');
    const pixels: TikTokPixel[] = [];
    for (let page = 1, totalPages = 1; page <= totalPages; page++) {
      const result = await deps.tiktok.listPixels(current.accessToken, { advertiserId: current.advertiserId, page, pageSize: TIKTOK_LIMITS.maxPixelPageSize });
      const data = await unwrap(workspaceId, 'listing pixels', result);
      pixels.push(...(data.pixels ?? []));
      totalPages = data.page_info?.total_page ?? 1;
    }
    return pixels.map((p) => ({ pixelId: String(p.pixel_id), pixelCode: p.pixel_code, pixelName: p.pixel_name }));
  }

  /** `details.permission` names it for a program, `details.description` for a person. */
  function permissionMissing(kind: EventSetKind, tiktok: Record<string, unknown> = {}): TikTokConnectionError {
    const { key, description } = EVENT_SET_PERMISSIONS[kind];
    return new TikTokConnectionError(
      'permission_missing',
      `listing ${EVENT_SET_NAMES[kind]}s: the TikTok connection lacks the permission to ${description}; authorize TikTok again with it selected, or give the ${EVENT_SET_NAMES[kind]}'s ID from Events Manager`,
      { permission: key, description, ...tiktok },
    );
  }

  async function listEventSets(workspaceId: string, kind: EventSetKind): Promise<EventSetChoiceView[]> {
    const current = await connection(workspaceId);
    if (current.advertiserId === null) throw new TikTokConnectionError('advertiser_not_selected', `select the advertiser before its ${EVENT_SET_NAMES[kind]}`);
    if (grantLacksListPermission(kind, current.grantedScopes)) throw permissionMissing(kind);
    const listed = await fetchEventSets(deps.tiktok, kind, current.accessToken, current.advertiserId);
    if (refusedForPermission(listed)) throw permissionMissing(kind, tiktokDetails(listed));
    return unwrap(workspaceId, `listing ${EVENT_SET_NAMES[kind]}s`, listed);
  }

  /** One of the listed sets; by ID alone (as the App ID) when TikTok cannot list them: no advertiser, or no permission to. */
  async function eventSetChoice(workspaceId: string, kind: EventSetKind, eventSetId: string): Promise<{ eventSetId: string; eventSetName: string | null }> {
    const byIdAlone = { eventSetId, eventSetName: null };
    if ((await connection(workspaceId)).advertiserId === null) return byIdAlone;
    const sets = await listEventSets(workspaceId, kind).catch((error: unknown) => {
      if (error instanceof TikTokConnectionError && error.code === 'permission_missing') return undefined;
      throw error;
    });
    if (sets === undefined) return byIdAlone;
    const chosen = sets.find((set) => set.eventSetId === eventSetId);
    if (chosen === undefined) {
      throw new TikTokConnectionError('event_set_not_found', `eventSetId: ${eventSetId} is not one of the selected advertiser's ${EVENT_SET_NAMES[kind]}s`, { available: sets.map((set) => set.eventSetId) });
    }
    return { eventSetId, eventSetName: chosen.eventSetName || null };
  }

  return {
    /** Step 1: the URL to open in a browser (app ID, redirect URI and a signed `state` valid for 10 minutes). */
    async authorizationUrl(workspaceId: string, actor = 'operator'): Promise<AuthorizationUrl> {
      const { appId, redirectUri } = app();
      await requireWorkspace(workspaceId);
      const issued = deps.states.issue(workspaceId, now(), actor);
      const url = new URL(deps.oauth.authUrl);
      url.searchParams.set('app_id', appId);
      url.searchParams.set('state', issued.state);
      url.searchParams.set('redirect_uri', redirectUri);
      return { url: url.toString(), state: issued.state, expiresAt: issued.expiresAt };
    },

    /**
     * Step 2, the callback: checks `state` (signature, expiry, workspace, single use), exchanges `auth_code`, refuses
     * a grant missing a required permission (nothing is stored then), lists the accessible advertisers and stores
     * the token encrypted. An earlier advertiser choice that is still accessible is kept, with its schedule.
     */
    async completeAuthorization(workspaceId: string, callback: { authCode: string; state: string }): Promise<TikTokConnectionView> {
      const credentials = app();
      const verified = deps.states.verify(callback.state, workspaceId, now());
      if (!(await oauthStates.consume(verified.nonce, workspaceId, verified.expiresAt))) {
        throw new TikTokConnectionError('state_reused', 'state: this authorization was already completed; start the connection again');
      }
      if (callback.authCode.trim() === '') throw new TikTokConnectionError('auth_code_rejected', 'auth_code: missing from the callback');

      const exchanged = await deps.tiktok.exchangeAuthCode({ app_id: credentials.appId, secret: credentials.secret, auth_code: callback.authCode });
      if (exchanged.outcome !== 'success') {
        const error = tiktokFailure('exchanging auth_code', exchanged);
        if (exchanged.outcome === 'permanent') throw new TikTokConnectionError('auth_code_rejected', `auth_code: TikTok refused it (${exchanged.code ?? 'HTTP'}: ${exchanged.message})`, error.details);
        throw error;
      }
      const data = exchanged.body.data;
      if (data === undefined || typeof data.access_token !== 'string' || data.access_token === '') {
        throw new TikTokConnectionError('tiktok_rejected', 'exchanging auth_code: TikTok answered without an access_token');
      }
      const grantedScopes = normalizeScopes(data.scope);
      const missing = missingPermissions(grantedScopes);
      if (missing.length > 0) {
        throw new TikTokConnectionError(
          'missing_permissions',
          `TikTok granted the connection without: ${missing.join(', ')}. Authorize again and keep all three permissions selected`,
          { missing, grantedScopes },
        );
      }
      const advertisers = await accessibleAdvertisers(data.access_token, (data.advertiser_ids ?? []).map(String), credentials);
      const stored = (await logged(workspaceId, verified.actor, 'tiktok.connect', (trx) =>
        tiktokConnections.putAuthorized(workspaceId, { accessToken: data.access_token, grantedScopes, accessibleAdvertisers: advertisers }, trx),
      )) as TikTokConnectionSummary;
      await deps.onTokenStored?.(workspaceId);
      if (stored.advertiserId !== null) await deps.schedules.ensure(workspaceId);
      return view(stored);
    },

    /** Step 3: the advertisers the connection may use (as listed when it was authorized). */
    async listAdvertisers(workspaceId: string): Promise<AccessibleAdvertiser[]> {
      const current = await connection(workspaceId);
      return current.accessibleAdvertisers ?? (current.advertiserId === null ? [] : [{ advertiserId: current.advertiserId, advertiserName: '' }]);
    },

    /** Step 4: the primary advertiser; creates (or updates) the workspace's statistics schedule. */
    async selectAdvertiser(workspaceId: string, advertiserId: string, actor = 'operator'): Promise<TikTokConnectionView> {
      const current = await connection(workspaceId);
      if (!/^\d{1,32}$/.test(advertiserId)) throw new TikTokConnectionError('advertiser_not_accessible', 'advertiserId: must be a string of digits');
      if (current.accessibleAdvertisers !== null && !current.accessibleAdvertisers.some((a) => a.advertiserId === advertiserId)) {
        throw new TikTokConnectionError('advertiser_not_accessible', `advertiserId: ${advertiserId} is not among the advertisers this authorization covers`);
      }
      const updated = await logged(workspaceId, actor, 'tiktok.advertiser', (trx) => tiktokConnections.selectAdvertiser(workspaceId, advertiserId, trx));
      if (updated === undefined) throw new TikTokConnectionError('not_connected', 'this workspace has no TikTok connection');
      await deps.schedules.ensure(workspaceId);
      return view(updated);
    },

    /** Step 5: the selected advertiser's pixels, every page of `pixel/list`. */
    listPixels,

    /** Step 6: the pixel used as `event_source_id`; it must be one of the advertiser's pixels. */
    async selectPixel(workspaceId: string, pixelCode: string, actor = 'operator'): Promise<TikTokConnectionView> {
      const pixels = await listPixels(workspaceId);
      const chosen = pixels.find((p) => p.pixelCode === pixelCode);
      if (chosen === undefined) {
        throw new TikTokConnectionError('pixel_not_found', `pixelCode: ${pixelCode} is not a pixel of the selected advertiser`, { available: pixels.map((p) => p.pixelCode) });
      }
      const updated = await logged(workspaceId, actor, 'tiktok.pixel', (trx) => tiktokConnections.selectPixel(workspaceId, { pixelCode, pixelName: chosen.pixelName || null }, trx));
      if (updated === undefined) throw new TikTokConnectionError('not_connected', 'this workspace has no TikTok connection');
      return view(updated);
    },

    /** The advertiser's Offline or CRM Event Sets, each list whole; a missing permission is refused naming it. */
    listEventSets,

    /** Where events of that kind are sent (`event_source_id`); null sends them to none. */
    async selectEventSet(workspaceId: string, kind: EventSetKind, eventSetId: string | null, actor = 'operator'): Promise<TikTokConnectionView> {
      const choice = eventSetId === null ? null : await eventSetChoice(workspaceId, kind, eventSetId);
      const updated = await logged(workspaceId, actor, `tiktok.${kind}_event_set`, (trx) => tiktokConnections.selectEventSet(workspaceId, kind, choice, trx));
      if (updated === undefined) throw new TikTokConnectionError('not_connected', 'this workspace has no TikTok connection');
      return view(updated);
    },

    /** A token pasted from Events Manager; with an advertiser it gets a statistics schedule, without one none. */
    async connectManually(workspaceId: string, input: ManualConnectionInput, actor = 'operator'): Promise<TikTokConnectionView> {
      await requireWorkspace(workspaceId);
      const stored = (await logged(workspaceId, actor, 'tiktok.connect', (trx) => tiktokConnections.put(workspaceId, { ...input, source: 'manual' }, trx))) as TikTokConnectionSummary;
      await deps.onTokenStored?.(workspaceId);
      if (stored.advertiserId === null) await deps.schedules.remove(workspaceId);
      else await deps.schedules.ensure(workspaceId);
      return view(stored);
    },

    /** Removes the stored token and the statistics schedule. False when there was no connection. */
    /** The schedule goes first: if Temporal is unreachable the token stays, and disconnecting again finishes the job. */
    async disconnect(workspaceId: string, actor = 'operator'): Promise<boolean> {
      await deps.schedules.remove(workspaceId);
      return deps.transaction(async (trx) => {
        const before = await tiktokConnections.summary(workspaceId, trx);
        if (before === undefined || !(await tiktokConnections.remove(workspaceId, trx))) return false;
        await deps.repos.changeLog.record({ workspaceId, actor, action: 'tiktok.disconnect', target: 'tiktok', before: connectionRecord(before), after: null }, trx);
        return true;
      });
    },

    /** The TikTok App ID mobile-app events are sent under; undefined when there is no connection. */
    async setAppId(workspaceId: string, appId: string | null, actor = 'operator'): Promise<TikTokConnectionSummary | undefined> {
      return logged(workspaceId, actor, 'tiktok.app', (trx) => tiktokConnections.setAppId(workspaceId, appId, trx));
    },

    async status(workspaceId: string): Promise<(TikTokConnectionView & { schedule: AdStatsScheduleInfo | null }) | undefined> {
      const summary = await tiktokConnections.summary(workspaceId);
      if (summary === undefined) return undefined;
      return { ...view(summary), schedule: (await deps.schedules.describe(workspaceId)) ?? null };
    },

    /** Pulls statistics now (the schedule's "trigger"), and logs who asked. */
    async triggerStatsPull(workspaceId: string, actor = 'operator'): Promise<void> {
      const current = await connection(workspaceId);
      if (current.advertiserId === null) throw new TikTokConnectionError('advertiser_not_selected', 'select an advertiser first: statistics are pulled per advertiser');
      await deps.schedules.ensure(workspaceId);
      await deps.schedules.trigger(workspaceId);
      await deps.repos.changeLog.record({ workspaceId, actor, action: 'tiktok.stats_pull', target: 'tiktok', after: { advertiserId: current.advertiserId, advertiserName: current.advertiserName } });
    },
  };
}

export type TikTokConnectionService = ReturnType<typeof createTikTokConnectionService>;
