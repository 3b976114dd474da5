import type { Knex } from 'knex';
import { withFullMessage } from '../event-message';
import type { ClickRow, ConversionRow, EventRow, IdentityKind, VisitorRow } from '../types';

const MAX_LINKED = 200;

export type NamedClick = ClickRow & { campaign_name: string | null; adgroup_name: string | null; ad_name: string | null };
const RECENT = 50;

/** Everything known about a person, by their identifiers (spec §7.7: why do identities not link?). */
export function createPeopleRepository(db: Knex) {
  return {
    /** Identifiers linked to `seed` through identity links, up to four hops, the seed included; with how they link. */
    async linked(workspaceId: string, seed: { kind: IdentityKind; value: string }, executor: Knex = db) {
      const { rows } = await executor.raw<{ rows: { kind: IdentityKind; value: string; hops: number; via_kind: IdentityKind | null; via_value: string | null }[] }>(
        `WITH RECURSIVE reach(kind, value, hops, via_kind, via_value) AS (
           SELECT ?::text, ?::text, 0, NULL::text, NULL::text
           UNION
           SELECT l.to_kind, l.to_value, r.hops + 1, r.kind, r.value
           FROM reach r CROSS JOIN LATERAL (
             SELECT to_kind, to_value FROM identity_links WHERE workspace_id = ? AND from_kind = r.kind AND from_value = r.value OFFSET 0
           ) l
           WHERE r.hops < 4
         )
         SELECT DISTINCT ON (kind, value) kind, value, hops, via_kind, via_value FROM reach ORDER BY kind, value, hops LIMIT ?`,
        [seed.kind, seed.value, workspaceId, MAX_LINKED],
      );
      return rows.map((r) => ({ kind: r.kind, value: r.value, hops: r.hops, via: r.via_kind === null ? null : { kind: r.via_kind, value: r.via_value as string } }));
    },

    async visitors(workspaceId: string, anonymousIds: readonly string[], executor: Knex = db): Promise<VisitorRow[]> {
      if (anonymousIds.length === 0) return [];
      return executor('visitors').where({ workspace_id: workspaceId }).whereIn('anonymous_id', [...anonymousIds]).orderBy('last_seen_at', 'desc');
    },

    /** Their newest ad clicks, each with the names TikTok gave its campaign, ad group and ad (null until statistics named them). */
    async clicks(workspaceId: string, anonymousIds: readonly string[], executor: Knex = db): Promise<NamedClick[]> {
      if (anonymousIds.length === 0) return [];
      const name = (level: string, column: string) =>
        executor.raw(`(SELECT e.name FROM ad_entities e WHERE e.workspace_id = c.workspace_id AND e.level = '${level}' AND e.entity_id = c.${column}) AS ${level}_name`);
      return executor('clicks as c')
        .select('c.*', name('campaign', 'campaign_id'), name('adgroup', 'adgroup_id'), name('ad', 'ad_id'))
        .where({ 'c.workspace_id': workspaceId })
        .whereIn('c.anonymous_id', [...anonymousIds])
        .orderBy('c.captured_at', 'desc')
        .limit(RECENT);
    },

    /** The newest events of these users and anonymous IDs (each through its own index). */
    async recentEvents(workspaceId: string, ids: { userIds: readonly string[]; anonymousIds: readonly string[] }, executor: Knex = db): Promise<EventRow[]> {
      if (ids.userIds.length === 0 && ids.anonymousIds.length === 0) return [];
      const { rows } = await executor.raw<{ rows: EventRow[] }>(
        `SELECT * FROM (
           (SELECT * FROM events WHERE workspace_id = ? AND user_id = ANY(?::text[]) ORDER BY id DESC LIMIT ?)
           UNION
           (SELECT * FROM events WHERE workspace_id = ? AND anonymous_id = ANY(?::text[]) ORDER BY id DESC LIMIT ?)
         ) e ORDER BY id DESC LIMIT ?`,
        [workspaceId, [...ids.userIds], RECENT, workspaceId, [...ids.anonymousIds], RECENT, RECENT],
      );
      return rows.map(withFullMessage);
    },

    async conversions(workspaceId: string, ids: { userIds: readonly string[]; anonymousIds: readonly string[] }, executor: Knex = db): Promise<ConversionRow[]> {
      if (ids.userIds.length === 0 && ids.anonymousIds.length === 0) return [];
      const { rows } = await executor.raw<{ rows: ConversionRow[] }>(
        `SELECT c.* FROM conversions c
         WHERE c.id IN (
           SELECT id FROM conversions WHERE workspace_id = ? AND user_id = ANY(?::text[])
           UNION ALL
           SELECT id FROM conversions WHERE workspace_id = ? AND anonymous_id = ANY(?::text[])
         )
         ORDER BY c.event_time DESC LIMIT ?`,
        [workspaceId, [...ids.userIds], workspaceId, [...ids.anonymousIds], RECENT],
      );
      return rows;
    },
  };
}

export type PeopleRepository = ReturnType<typeof createPeopleRepository>;
