import { isGrpcServiceError, type Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { SEARCH_ATTRIBUTES } from '../workflows/search-attributes';

/** gRPC INVALID_ARGUMENT: what a visibility query naming an unregistered search attribute is refused with. */
const GRPC_INVALID_ARGUMENT = 3;

/**
 * Registers Signalbox's search attributes on clusters that lack them (the dev server gets them as start flags).
 * Returns the names it added. Temporal Cloud documents tcld, its UI or Terraform for this, not the operator API:
 * see `temporalCloudRegistration`.
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

/**
 * The search attributes a visibility query of this namespace cannot use: the check that works where the operator API
 * is refused (it needs only the namespace's own permissions).
 */
export async function unusableSearchAttributes(connection: Connection, namespace: string): Promise<string[]> {
  const unusable: string[] = [];
  for (const attribute of SEARCH_ATTRIBUTES) {
    try {
      await connection.workflowService.countWorkflowExecutions({ namespace, query: `${attribute.name} = 'signalbox-setup-check'` });
    } catch (error) {
      if (!isGrpcServiceError(error) || error.code !== GRPC_INVALID_ARGUMENT) throw error;
      unusable.push(attribute.name);
    }
  }
  return unusable;
}

/** The tcld command that registers the search attributes on a Temporal Cloud namespace. */
export function temporalCloudRegistration(namespace: string): string {
  return [`tcld namespace search-attributes add --namespace ${namespace}`, ...SEARCH_ATTRIBUTES.map((a) => `--search-attribute ${a.name}=Keyword`)].join(' ');
}
