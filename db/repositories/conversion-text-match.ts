import type { Knex } from 'knex';
import { additionalEventId } from '../../domain/rule-events';

/** What a typed search names: an event_id or order ID, an order's number (`#9074` or `9074`), a conversion ID, or people (by user ID, anonymous ID, email). */
export interface TextMatch {
  text: string;
  /** TikTok events the workspace converts to: an order ID also finds its additional events (`<id>:<TikTok event>`). */
  knownTiktokEvents: readonly string[];
  /** The user IDs and anonymous IDs whose conversions match, as stored (any case of the text; an email's person). */
  userIds: readonly string[];
  anonymousIds: readonly string[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The IDs of a workspace's conversions a search matches, in any letter case. Each way of matching has its own index
 * (event_id through `conversions_event_id_lower`, the order's number through `conversions_order_name_lower`); an OR of them would scan the workspace's conversions.
 */
export function conversionIdsMatching(executor: Knex, workspaceId: string, match: TextMatch): Knex.QueryBuilder {
  const eventIds = [match.text, ...match.knownTiktokEvents.map((name) => additionalEventId(match.text, name))].map((id) => id.toLowerCase());
  const ids = executor.select('id').from('conversions').where('workspace_id', workspaceId).whereRaw('lower(event_id) = ANY(?::text[])', [eventIds]);
  if (match.userIds.length > 0) {
    void ids.unionAll((byUser) => {
      void byUser.select('id').from('conversions').where('workspace_id', workspaceId).whereIn('user_id', [...match.userIds]);
    });
  }
  if (match.anonymousIds.length > 0) {
    void ids.unionAll((byVisitor) => {
      void byVisitor.select('id').from('conversions').where('workspace_id', workspaceId).whereIn('anonymous_id', [...match.anonymousIds]);
    });
  }
  const orderNames = match.text.startsWith('#') ? [match.text, match.text.slice(1)] : [match.text, `#${match.text}`];
  void ids.unionAll((byOrderName) => {
    void byOrderName.select('id').from('conversions').where('workspace_id', workspaceId).whereRaw('lower(order_name) = ANY(?::text[])', [orderNames.map((name) => name.toLowerCase())]);
  });
  if (UUID.test(match.text)) void ids.unionAll((byId) => void byId.select('id').from('conversions').where({ workspace_id: workspaceId, id: match.text }));
  return ids;
}
