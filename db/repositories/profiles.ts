import type { Knex } from 'knex';
import { bindings } from './bindings';
import type { IdentityKind, IdentityLink, IdentityNode } from '../../domain/observation';
import type { ClickRow, VisitorRow } from '../types';

/** How far the identity walk goes: desktop visitor → user → email → phone visitor → its user is 4 hops. */
const MAX_LINK_HOPS = 4;
const MAX_REACHABLE = 1000;

/** The visitors of an array of anonymous IDs (`?::text[]`) in a workspace (`?`); exported for the test of its plan. */
export const VISITORS_BY_ID = `SELECT v.* FROM unnest(?::text[]) AS q(anonymous_id)
  CROSS JOIN LATERAL (SELECT * FROM visitors WHERE workspace_id = ? AND anonymous_id = q.anonymous_id OFFSET 0) v`;

export function createProfileRepository(db: Knex) {
  return {
    /**
     * Every identifier of `kind` reachable from the given identities through identity links (the seeds' own included).
     * Each step looks up its nodes' links by primary key: as a plain join, stale statistics on a growing workspace
     * (a few rows when last analyzed) made PostgreSQL hash-join the workspace's whole link table at every step,
     * 30× slower. OFFSET 0 keeps the LATERAL subquery from being flattened back into such a join.
     */
    async reachable(
      workspaceId: string,
      seeds: readonly IdentityNode[],
      kind: IdentityKind,
      maxHops = MAX_LINK_HOPS,
      executor: Knex = db,
    ): Promise<string[]> {
      if (seeds.length === 0) return [];
      const { rows } = await executor.raw<{ rows: { value: string }[] }>(
        `WITH RECURSIVE reach(kind, value, hops) AS (
           SELECT * FROM unnest(?::text[], ?::text[], ?::int[])
           UNION
           SELECT l.to_kind, l.to_value, r.hops + 1
           FROM reach r CROSS JOIN LATERAL (
             SELECT to_kind, to_value FROM identity_links
             WHERE workspace_id = ? AND from_kind = r.kind AND from_value = r.value
             OFFSET 0
           ) l
           WHERE r.hops < ?
         )
         SELECT DISTINCT value FROM reach WHERE kind = ? LIMIT ?`,
        bindings(seeds.map((s) => s.kind), seeds.map((s) => s.value), seeds.map(() => 0), workspaceId, maxHops, kind, MAX_REACHABLE),
      );
      return rows.map((row) => row.value);
    },

    /**
     * The identity links leaving any of these nodes, for a whole group's walks at once (one hop). Each node's links
     * are read by primary key, for the reason `reachable` gives.
     */
    async linksFrom(workspaceId: string, nodes: readonly IdentityNode[], executor: Knex = db): Promise<IdentityLink[]> {
      if (nodes.length === 0) return [];
      const { rows } = await executor.raw<{ rows: { from_kind: IdentityKind; from_value: string; to_kind: IdentityKind; to_value: string }[] }>(
        `SELECT f.kind AS from_kind, f.value AS from_value, l.to_kind, l.to_value
         FROM unnest(?::text[], ?::text[]) AS f(kind, value)
         CROSS JOIN LATERAL (
           SELECT to_kind, to_value FROM identity_links
           WHERE workspace_id = ? AND from_kind = f.kind AND from_value = f.value
           OFFSET 0
         ) l`,
        bindings(nodes.map((n) => n.kind), nodes.map((n) => n.value), workspaceId),
      );
      return rows.map((r) => ({ from: { kind: r.from_kind, value: r.from_value }, to: { kind: r.to_kind, value: r.to_value } }));
    },

    /** For each (visitor, time) asked, the visitor's most recent click captured no later than that time. */
    async latestClicks(workspaceId: string, asked: readonly { anonymousId: string; notAfter: Date }[], executor: Knex = db): Promise<(ClickRow & { not_after: Date })[]> {
      if (asked.length === 0) return [];
      const { rows } = await executor.raw<{ rows: (ClickRow & { not_after: Date })[] }>(
        `SELECT q.not_after, c.* FROM unnest(?::text[], ?::timestamptz[]) AS q(anonymous_id, not_after)
         CROSS JOIN LATERAL (
           SELECT * FROM clicks WHERE workspace_id = ? AND anonymous_id = q.anonymous_id AND captured_at <= q.not_after
           ORDER BY captured_at DESC LIMIT 1
         ) c`,
        bindings(asked.map((a) => a.anonymousId), asked.map((a) => a.notAfter.toISOString()), workspaceId),
      );
      return rows;
    },

    /** The clicks asked, each a visitor's `ttclid` (read by primary key), where that visitor saw it: when first, and its ad. */
    async clickSightings(workspaceId: string, asked: readonly { anonymousId: string; ttclid: string }[], executor: Knex = db): Promise<ClickRow[]> {
      if (asked.length === 0) return [];
      const { rows } = await executor.raw<{ rows: ClickRow[] }>(
        `SELECT c.* FROM unnest(?::text[], ?::text[]) AS q(anonymous_id, ttclid)
         CROSS JOIN LATERAL (
           SELECT * FROM clicks WHERE workspace_id = ? AND anonymous_id = q.anonymous_id AND ttclid = q.ttclid
         ) c`,
        bindings(asked.map((a) => a.anonymousId), asked.map((a) => a.ttclid), workspaceId),
      );
      return rows;
    },

    /** The most recent clicks of these visitors captured no later than `notAfter`. */
    async recentClicks(workspaceId: string, anonymousIds: readonly string[], notAfter: Date, limit = 20, executor: Knex = db): Promise<ClickRow[]> {
      if (anonymousIds.length === 0) return [];
      return executor('clicks')
        .where({ workspace_id: workspaceId })
        .whereIn('anonymous_id', [...anonymousIds])
        .where('captured_at', '<=', notAfter)
        .orderBy('captured_at', 'desc')
        .limit(limit);
    },

    /**
     * One primary-key probe per anonymous ID (a group asks for up to 1,000), whatever the statistics say. As
     * `anonymous_id IN (…)` (1,001 parameters), a visitors table never analysed was read whole for the workspace, each
     * row checked against the list: it grew with the workspace's visitors, and a prepare step timed out after an
     * upgrade (issue 48; BENCHMARKS.md).
     */
    async visitors(workspaceId: string, anonymousIds: readonly string[], executor: Knex = db): Promise<VisitorRow[]> {
      if (anonymousIds.length === 0) return [];
      const { rows } = await executor.raw<{ rows: VisitorRow[] }>(VISITORS_BY_ID, bindings([...new Set(anonymousIds)], workspaceId));
      return rows;
    },

    /**
     * Clears device details (IP address, user agent, page URL) seen longer ago than the visitor's workspace's
     * attribution window: they serve only conversions inside it. At most `limit` visitors per call.
     */
    async forgetExpiredDevices(limit = 10_000, executor: Knex = db): Promise<number> {
      const { rowCount } = await executor.raw<{ rowCount: number }>(
        `UPDATE visitors v SET device_ip = NULL, device_user_agent = NULL, device_page_url = NULL, device_seen_at = NULL
         WHERE (v.workspace_id, v.anonymous_id) IN (
           SELECT expired.workspace_id, expired.anonymous_id
           FROM workspaces w CROSS JOIN LATERAL (
             SELECT e.workspace_id, e.anonymous_id FROM visitors e
             WHERE e.workspace_id = w.id AND e.device_seen_at < now() - make_interval(days => w.attribution_window_days)
             LIMIT ?
           ) expired
           LIMIT ?)`,
        [limit, limit],
      );
      return rowCount;
    },
  };
}

export type ProfileRepository = ReturnType<typeof createProfileRepository>;
