import type { Knex } from 'knex';
import type { IdentityNode } from '../../domain/observation';
import { anonymiseConversions, forgetLinks, forgetVisitors, type ErasedCounts } from './erasures';
import { removeEvents } from './event-removal';

export interface RemovedSourceData extends ErasedCounts {
  /** The carts the source remembered (carts/update). */
  carts: number;
}

/** Anonymous IDs a Shopify source made itself (cart tokens, an order's or a customer's own): no other source uses them. */
const SHOPIFY_MADE = 'shopify-';

/**
 * Removes what a webhook source stored, in the caller's transaction: its events (found by their message ID, which
 * begins with the source's ID), deleted or, where a conversion refers to one, stripped without its user and anonymous
 * IDs; the identifying fields of the conversions made from them (their row, status and value stay); every identity
 * link touching an identifier its events carried; the visitor profiles and clicks of the anonymous IDs it made (those
 * of the storefront tag's visitors stay with the tag's own events); its remembered carts. Other sources' events and
 * other workspaces are not touched. Running it again changes nothing.
 */
export async function removeSourceData(executor: Knex, workspaceId: string, sourceId: string): Promise<RemovedSourceData> {
  const prefix = `${sourceId}:`;
  const events: { id: string; user_id: string | null; anonymous_id: string | null }[] = await executor('events')
    .where({ workspace_id: workspaceId })
    .whereRaw('starts_with(message_id, ?)', [prefix])
    .select('id', 'user_id', 'anonymous_id');
  const eventIds = events.map((event) => event.id);
  const conversionsAnonymised = await anonymiseConversions(executor, workspaceId, {
    // Also those whose event retention has already dropped: a conversion keeps its event's message ID.
    sql: '(event_row_id = ANY(?::bigint[]) OR starts_with(message_id, ?))',
    bindings: [eventIds, prefix],
  });
  const removed = await removeEvents(executor, { sql: 'SELECT unnest(?::bigint[]) AS id', bindings: [eventIds] }, { forgetIdentity: true });
  const userIds = new Set(events.flatMap((event) => event.user_id ?? []));
  const anonymousIds = new Set(events.flatMap((event) => event.anonymous_id ?? []));
  const nodes: IdentityNode[] = [...[...userIds].map((value) => ({ kind: 'user_id' as const, value })), ...[...anonymousIds].map((value) => ({ kind: 'anonymous_id' as const, value }))];
  const identityLinks = await forgetLinks(executor, workspaceId, nodes);
  const { visitors, clicks } = await forgetVisitors(executor, workspaceId, [...anonymousIds].filter((id) => id.startsWith(SHOPIFY_MADE)));
  const carts = await executor('shopify_carts').where({ source_id: sourceId }).delete();
  return { eventsDeleted: removed.deleted, eventsStripped: removed.stripped, conversionsAnonymised, visitors, clicks, identityLinks, carts };
}
