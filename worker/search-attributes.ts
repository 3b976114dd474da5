import type { Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { SEARCH_ATTRIBUTES } from '../workflows/search-attributes';

/**
 * Registers Signalbox's search attributes on clusters that lack them (the dev server gets them as start flags).
 * Returns the names it added. Temporal Cloud refuses the operator API: register them in its console instead.
 */
export async function ensureSearchAttributes(connection: Connection, namespace: string): Promise<string[]> {
  const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
  const missing = SEARCH_ATTRIBUTES.filter((attribute) => customAttributes?.[attribute.name] === undefined);
  if (missing.length === 0) return [];
  await connection.operatorService.addSearchAttributes({
    namespace,
    searchAttributes: Object.fromEntries(missing.map((a) => [a.name, temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD])),
  });
  return missing.map((a) => a.name);
}
