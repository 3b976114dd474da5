import type { Knex } from 'knex';
import type { IdentityKind, IdentityNode } from '../../domain/observation';
import { withoutPersonalData } from '../../domain/personal-data';
import type { ErasureRequestRow } from '../types';
import { bindings } from './bindings';
import { removeEvents } from './event-removal';

/** As far as the conversion pipeline's identity walk reaches (see profiles.ts): farther nodes never identify this person. */
const MAX_HOPS = 4;
const MAX_NODES = 10_000;

export interface ErasedCounts {
  eventsDeleted: number;
  eventsStripped: number;
  conversionsAnonymised: number;
  visitors: number;
  clicks: number;
  identityLinks: number;
}

export interface PersonGraph {
  nodes: IdentityNode[];
  /** True when the walk stopped at its node limit before exhausting the hops. */
  truncated: boolean;
}

const ofKind = (nodes: readonly IdentityNode[], kind: IdentityKind) => nodes.filter((node) => node.kind === kind).map((node) => node.value);

/**
 * Clears the identifying fields of the workspace's conversions that `which` picks (an SQL condition on `conversions`,
 * with its `?` bindings): click, visitor, user and anonymous IDs, match keys, identity path, the personal data of the
 * stored TikTok request and their timeline details. They keep their row, status and value, so counts stay true.
 */
export async function anonymiseConversions(executor: Knex, workspaceId: string, which: { sql: string; bindings: readonly unknown[] }): Promise<number> {
  const conversions = await executor('conversions').where({ workspace_id: workspaceId }).whereRaw(which.sql, bindings(...which.bindings)).forUpdate().select('id', 'request_payload');
  if (conversions.length === 0) return 0;
  const ids = conversions.map((c) => c.id);
  await executor.raw(
    `UPDATE conversions c SET ttclid = NULL, ttp = NULL, click_anonymous_id = NULL, user_id = NULL, anonymous_id = NULL, match_keys = NULL, identity_path = NULL,
       request_payload = p.payload::jsonb, updated_at = now()
     FROM unnest(?::uuid[], ?::text[]) AS p(id, payload) WHERE c.id = p.id`,
    bindings(ids, conversions.map((c) => (c.request_payload === null ? null : JSON.stringify(withoutPersonalData(c.request_payload))))),
  );
  // The timeline keeps its steps and times; their details may name visitors and click IDs.
  await executor('conversion_history').whereIn('conversion_id', ids).update({ detail: { erased: true } });
  return conversions.length;
}

/** Deletes the visitor profiles and clicks of these anonymous IDs. */
export async function forgetVisitors(executor: Knex, workspaceId: string, anonymousIds: readonly string[]): Promise<Pick<ErasedCounts, 'visitors' | 'clicks'>> {
  const visitors = await executor('visitors').where({ workspace_id: workspaceId }).whereIn('anonymous_id', anonymousIds).delete();
  const clicks = await executor('clicks').where({ workspace_id: workspaceId }).whereIn('anonymous_id', anonymousIds).delete();
  return { visitors, clicks };
}

/** Deletes every identity link touching one of `nodes`, both directions; answers how many rows went. */
export async function forgetLinks(executor: Knex, workspaceId: string, nodes: readonly IdentityNode[]): Promise<number> {
  const { rowCount: identityLinks } = await executor.raw<{ rowCount: number }>(
    `WITH outgoing AS (
       SELECT l.from_kind, l.from_value, l.to_kind, l.to_value
       FROM unnest(?::text[], ?::text[]) AS p(kind, value)
       JOIN identity_links l ON l.workspace_id = ? AND l.from_kind = p.kind AND l.from_value = p.value
     ),
     both_directions AS (
       SELECT from_kind, from_value, to_kind, to_value FROM outgoing
       UNION SELECT to_kind, to_value, from_kind, from_value FROM outgoing
     )
     DELETE FROM identity_links l USING both_directions b
     WHERE l.workspace_id = ? AND (l.from_kind, l.from_value, l.to_kind, l.to_value) = (b.from_kind, b.from_value, b.to_kind, b.to_value)`,
    bindings(nodes.map((n) => n.kind), nodes.map((n) => n.value), workspaceId, workspaceId),
  );
  return identityLinks;
}

export function createErasureRepository(db: Knex) {
  async function neighbours(workspaceId: string, frontier: readonly IdentityNode[], executor: Knex): Promise<IdentityNode[]> {
    const { rows } = await executor.raw<{ rows: IdentityNode[] }>(
      `SELECT l.to_kind AS kind, l.to_value AS value
       FROM unnest(?::text[], ?::text[]) AS f(kind, value)
       JOIN identity_links l ON l.workspace_id = ? AND l.from_kind = f.kind AND l.from_value = f.value`,
      bindings(frontier.map((n) => n.kind), frontier.map((n) => n.value), workspaceId),
    );
    return rows;
  }

  return {
    /** The identifiers linked to `seeds` within the pipeline's identity reach (the seeds included), breadth first. */
    async personGraph(workspaceId: string, seeds: readonly IdentityNode[], executor: Knex = db): Promise<PersonGraph> {
      const seen = new Map(seeds.map((node) => [`${node.kind}\0${node.value}`, node]));
      let frontier = [...seen.values()];
      for (let hop = 0; hop < MAX_HOPS && frontier.length > 0; hop += 1) {
        const next: IdentityNode[] = [];
        for (const node of await neighbours(workspaceId, frontier, executor)) {
          const key = `${node.kind}\0${node.value}`;
          if (seen.has(key)) continue;
          if (seen.size >= MAX_NODES) return { nodes: [...seen.values()], truncated: true };
          seen.set(key, node);
          next.push(node);
        }
        frontier = next;
      }
      return { nodes: [...seen.values()], truncated: false };
    },

    /**
     * Removes the person's raw events (stripping those a conversion refers to, with their user and anonymous IDs),
     * visitor profiles, clicks and identity links, and the identifying fields of their conversions, which keep their
     * row so that counts stay true. Run it in a transaction; running it again changes nothing.
     */
    async erase(workspaceId: string, nodes: readonly IdentityNode[], executor: Knex = db): Promise<ErasedCounts> {
      const userIds = ofKind(nodes, 'user_id');
      const anonymousIds = ofKind(nodes, 'anonymous_id');
      const events = await executor('events')
        .where({ workspace_id: workspaceId })
        .whereRaw('(user_id = ANY(?::text[]) OR anonymous_id = ANY(?::text[]))', bindings(userIds, anonymousIds))
        .pluck('id');
      const conversionsAnonymised = await anonymiseConversions(executor, workspaceId, {
        // The person's conversions, found by their events, their click's visitor, and the IDs they keep once their event is gone.
        sql: '(event_row_id = ANY(?::bigint[]) OR click_anonymous_id = ANY(?::text[]) OR user_id = ANY(?::text[]) OR anonymous_id = ANY(?::text[]))',
        bindings: [events, anonymousIds, userIds, anonymousIds],
      });
      const removed = await removeEvents(executor, { sql: 'SELECT unnest(?::bigint[]) AS id', bindings: [events] }, { forgetIdentity: true });
      const { visitors, clicks } = await forgetVisitors(executor, workspaceId, anonymousIds);
      const identityLinks = await forgetLinks(executor, workspaceId, nodes);
      return { eventsDeleted: removed.deleted, eventsStripped: removed.stripped, conversionsAnonymised, visitors, clicks, identityLinks };
    },

    async record(entry: Omit<ErasureRequestRow, 'id' | 'requested_at'>, executor: Knex = db): Promise<ErasureRequestRow> {
      const [row] = await executor('erasure_requests')
        .insert({ ...entry, identifiers: JSON.stringify(entry.identifiers) as unknown as ErasureRequestRow['identifiers'] })
        .returning('*');
      return row as ErasureRequestRow;
    },

    async list(workspaceId: string, limit: number, executor: Knex = db): Promise<ErasureRequestRow[]> {
      return executor('erasure_requests').where({ workspace_id: workspaceId }).orderBy('requested_at', 'desc').limit(limit);
    },
  };
}

export type ErasureRepository = ReturnType<typeof createErasureRepository>;
