import type { ApiKey, ApiKeyRepository } from '../../../db/repositories/api-keys';
import type { ConversionRule, ConversionRuleRepository } from '../../../db/repositories/conversion-rules';
import type { TikTokConnectionSummary } from '../../../db/repositories/tiktok-connections';
import type { Workspace, WorkspaceRepository } from '../../../db/repositories/workspaces';
import { sha256Hex } from '../../../domain/hashing';

export interface IngestCredential {
  apiKey: ApiKey;
  workspace: Workspace;
}

/** What the tag needs to drive TikTok's pixel for a workspace: its pixel code and the rules the pixel may see. */
export interface PixelSetup {
  /** The chosen TikTok pixel (the Events API's `event_source_id`); null until one is chosen. */
  code: string | null;
  /** The workspace's conversion rules that are not server-only. */
  rules: ConversionRule[];
}

export interface CredentialCacheOptions {
  /** How long a lookup (found or not) is reused; other processes see a revocation after at most this long. */
  ttlMs?: number;
  maxEntries?: number;
  now?: () => number;
}

interface Entry {
  value: unknown;
  expiresAt: number;
}

/**
 * Resolves an API key to its key record and workspace, tells whether any workspace allows a browser origin, and gives
 * a workspace's pixel setup (browser config, fetched by every page view), with a short in-process cache so that ingest
 * does not query PostgreSQL on every request. `clear()` is called by the settings API whenever a key, a workspace's
 * settings or a conversion rule changes; a pixel chosen in the TikTok connection, and any change made through another
 * API process, shows within the TTL.
 */
export function createCredentialCache(
  repos: {
    apiKeys: Pick<ApiKeyRepository, 'findActive'>;
    workspaces: Pick<WorkspaceRepository, 'find' | 'anyAllowsOrigin'>;
    conversionRules: Pick<ConversionRuleRepository, 'list'>;
    tiktokConnections: { summary(workspaceId: string): Promise<Pick<TikTokConnectionSummary, 'pixelCode'> | undefined> };
  },
  { ttlMs = 5_000, maxEntries = 10_000, now = Date.now }: CredentialCacheOptions = {},
) {
  const entries = new Map<string, Entry>();
  /** Lookups under way: requests that miss the cache meanwhile wait for the same one instead of each querying. */
  const lookingUp = new Map<string, Promise<unknown>>();
  // A lookup that started before `clear()` may have read the key before it was revoked: it must not be cached.
  let generation = 0;

  function cached<T>(id: string, lookUp: () => Promise<T>): Promise<T> {
    const hit = entries.get(id);
    if (hit !== undefined && hit.expiresAt > now()) return Promise.resolve(hit.value as T);
    const underWay = lookingUp.get(id);
    if (underWay !== undefined) return underWay as Promise<T>;
    const startedIn = generation;
    const lookup = lookUp()
      .then((value) => {
        if (startedIn !== generation) return value;
        entries.delete(id);
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
        entries.set(id, { value, expiresAt: now() + ttlMs });
        return value;
      })
      .finally(() => {
        if (lookingUp.get(id) === lookup) lookingUp.delete(id);
      });
    lookingUp.set(id, lookup);
    return lookup;
  }

  async function lookUpKey(key: string): Promise<IngestCredential | undefined> {
    const apiKey = await repos.apiKeys.findActive(key);
    if (apiKey === undefined) return undefined;
    const workspace = await repos.workspaces.find(apiKey.workspaceId);
    return workspace && { apiKey, workspace };
  }

  async function lookUpPixelSetup(workspaceId: string): Promise<PixelSetup> {
    const [connection, rules] = await Promise.all([repos.tiktokConnections.summary(workspaceId), repos.conversionRules.list(workspaceId)]);
    // TikTok's pixel reports website events: not a rule's sent only from the server, nor one sending to the app, the Offline or the CRM Event Set.
    const pixelMaySee = (rule: (typeof rules)[number]) => !rule.serverOnly && (rule.destination === 'auto' || rule.destination === 'web');
    return { code: connection?.pixelCode ?? null, rules: rules.filter(pixelMaySee) };
  }

  const keyId = (key: string) => `key:${sha256Hex(key)}`;

  return {
    /** The credential of a known key when its lookup is cached, without waiting: nearly every ingest request. */
    cached(key: string): IngestCredential | undefined {
      const hit = entries.get(keyId(key));
      return hit !== undefined && hit.expiresAt > now() ? (hit.value as IngestCredential | undefined) : undefined;
    },

    // Keyed by the key's hash so that plaintext keys do not sit in memory longer than a request.
    resolve: (key: string): Promise<IngestCredential | undefined> => cached(keyId(key), () => lookUpKey(key)),

    anyWorkspaceAllowsOrigin: (origin: string): Promise<boolean> => cached(`origin:${origin}`, () => repos.workspaces.anyAllowsOrigin(origin)),

    pixelSetup: (workspaceId: string): Promise<PixelSetup> => cached(`pixel:${workspaceId}`, () => lookUpPixelSetup(workspaceId)),

    clear(): void {
      generation += 1;
      entries.clear();
      lookingUp.clear();
    },
  };
}

export type CredentialCache = ReturnType<typeof createCredentialCache>;
