import type { Knex } from 'knex';
import type { TikTokEventSource } from '../../domain/tiktok-wire';
import type { MatchKey, MatchKeySource } from '../types';

/** Every key a conversion can carry, in the order people read them (strongest matches first). */
export const MATCH_KEYS: readonly MatchKey[] = [
  'ttclid', 'ttp', 'email', 'phone', 'external_id', 'first_name', 'last_name', 'city', 'state', 'country', 'zip_code', 'ip', 'user_agent', 'page_url',
  'locale', 'idfa', 'idfv', 'gaid',
];

export interface MatchKeyShare {
  key: MatchKey;
  /** Delivered conversions that carried the key. */
  conversions: number;
  /** conversions / delivered, rounded to 4 decimals; null when nothing was delivered. */
  share: number | null;
  /** Of those, how many took it from the message, a linked visitor, or linked identities. */
  sources: Record<MatchKeySource['source'], number>;
}

export interface MatchKeyCoverage {
  /** Delivered conversions (test mode excluded) created in the period. */
  delivered: number;
  keys: MatchKeyShare[];
}

export function createMatchKeyCoverageRepository(db: Knex) {
  return {
    /** The share of the workspace's delivered conversions created since `since` (of one source when given) that carried each match key. */
    async coverage(workspaceId: string, since: Date, source?: TikTokEventSource, executor: Knex = db): Promise<MatchKeyCoverage> {
      const { rows } = await executor.raw<{ rows: { delivered: string; key: string | null; source: string | null; n: string }[] }>(
        `WITH delivered AS (
           SELECT match_keys FROM conversions
           WHERE workspace_id = ? AND created_at >= ? AND status = 'delivered' AND NOT test_mode${source === undefined ? '' : ' AND event_source = ?'}
         )
         SELECT (SELECT count(*) FROM delivered) AS delivered, k.key, k.value->>'source' AS source, count(*) AS n
         FROM delivered CROSS JOIN LATERAL jsonb_each(coalesce(delivered.match_keys, '{}'::jsonb)) k
         GROUP BY k.key, k.value->>'source'
         UNION ALL
         SELECT (SELECT count(*) FROM delivered), NULL, NULL, 0`,
        [workspaceId, since, ...(source === undefined ? [] : [source])],
      );
      const delivered = Number(rows[0]?.delivered ?? 0);
      return {
        delivered,
        keys: MATCH_KEYS.map((key) => {
          const sources = { message: 0, visitor: 0, identity: 0 };
          for (const row of rows) if (row.key === key && row.source !== null && row.source in sources) sources[row.source as keyof typeof sources] += Number(row.n);
          const conversions = sources.message + sources.visitor + sources.identity;
          return { key, conversions, share: delivered === 0 ? null : Math.round((conversions / delivered) * 10_000) / 10_000, sources };
        }),
      };
    },
  };
}

export type MatchKeyCoverageRepository = ReturnType<typeof createMatchKeyCoverageRepository>;
