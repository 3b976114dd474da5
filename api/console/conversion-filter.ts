import type { Knex } from 'knex';
import type { z } from 'zod';
import type { Repositories } from '../../db/repositories';
import type { ConversionSearch } from '../../db/repositories/conversion-search';
import type { TextMatch } from '../../db/repositories/conversion-text-match';
import type { Workspace } from '../../db/repositories/workspaces';
import { TIKTOK_STANDARD_EVENTS } from '../../domain/event-mapping';
import { hashEmail } from '../../domain/hashing';
import type { TikTokEventSource } from '../../domain/tiktok-wire';
import type { RecommendedParameter } from '../../domain/recommended-parameters';
import { badRequest } from '../http/http-error';
import type { conversionFilterFields } from '../../contract/console/fields';
import { resolvePeriod } from './period';

type FilterQuery = z.infer<z.ZodObject<typeof conversionFilterFields>>;

export interface ConversionFilter {
  status?: 'pending' | 'delivered' | 'skipped' | 'failed';
  /** Where they happened (website, app, offline, CRM). */
  source?: TikTokEventSource;
  reason?: string;
  tiktokEvent?: string;
  /** The code TikTok refused them with. */
  tiktokCode?: number;
  /** Sent without this recommended parameter. */
  missing?: RecommendedParameter;
  /** Repeated by later events with the same order ID or event ID. */
  repeated?: boolean;
  /** Delivered without a click. */
  withoutClick?: boolean;
  eventFrom?: Date;
  eventTo?: Date;
  text?: TextMatch;
}

/** The filter with its days turned into instants and its search into what it names (an email: that person's IDs). */
export async function conversionFilter(db: Knex, repos: Repositories, workspace: Workspace, query: FilterQuery): Promise<ConversionFilter> {
  if ((query.from === undefined) !== (query.to === undefined)) throw badRequest('from and to go together', ['from and to go together']);
  const period = query.from !== undefined && query.to !== undefined ? await resolvePeriod(db, { from: query.from, to: query.to, timeZone: query.timeZone }) : undefined;
  const text = query.q === undefined || query.q === '' ? undefined : await textMatch(repos, workspace.id, query.q);
  return {
    status: query.status,
    source: query.source,
    reason: query.reason || undefined,
    tiktokEvent: query.tiktokEvent || undefined,
    tiktokCode: query.tiktokCode,
    missing: query.missing,
    repeated: query.repeated === 'true' || undefined,
    withoutClick: query.withoutClick === 'true' || undefined,
    eventFrom: period?.from,
    eventTo: period?.to,
    text,
  };
}

/** The filter as the conversions search takes it (without its page). */
export function searchOf(filter: ConversionFilter): Omit<ConversionSearch, 'limit' | 'before'> {
  const { eventFrom, eventTo, ...rest } = filter;
  return { ...rest, from: eventFrom, to: eventTo };
}

async function textMatch(repos: Repositories, workspaceId: string, text: string): Promise<TextMatch> {
  const rules = await repos.conversionRules.list(workspaceId);
  const named = await repos.conversionSearch.idsNamed(workspaceId, text);
  // An email is hashed as at ingest; the conversions of everyone linked to that hash match.
  const emailHash = text.includes('@') ? hashEmail(text) : undefined;
  const linked = emailHash === undefined ? [] : await repos.people.linked(workspaceId, { kind: 'email_sha256', value: emailHash });
  const ofKind = (kind: string) => linked.filter((node) => node.kind === kind).map((node) => node.value);
  return {
    text,
    knownTiktokEvents: [...new Set([...TIKTOK_STANDARD_EVENTS, ...rules.flatMap((rule) => [rule.tiktokEvent, ...rule.alsoSendAs])])],
    userIds: [...new Set([...named.userIds, ...ofKind('user_id')])],
    anonymousIds: [...new Set([...named.anonymousIds, ...ofKind('anonymous_id')])],
  };
}
