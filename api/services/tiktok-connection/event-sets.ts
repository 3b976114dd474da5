import type { EventSetKind } from '../../../contract/event-set-kinds';
import type { EventSetChoiceView } from '../../../contract/tiktok-views';
import type { TikTokCallResult, TikTokClient, TikTokPermanent } from '../../../adplatform/tiktok';
import { EVENT_SET_PERMISSIONS } from './permissions';

/** TikTok's code for a token without the permission a call needs (reference §2.3 [V2]). */
const NO_PERMISSION_CODE = 40001;

function choices(sets: readonly { event_set_id: string; name: string }[] | undefined): EventSetChoiceView[] {
  return (sets ?? []).map((set) => ({ eventSetId: String(set.event_set_id), eventSetName: set.name ?? '' }));
}

/** The advertiser's event sets of one kind, whole: neither `offline/get` nor `crm/list` is paged. */
export async function fetchEventSets(tiktok: TikTokClient, kind: EventSetKind, accessToken: string, advertiserId: string): Promise<TikTokCallResult<EventSetChoiceView[]>> {
  const result = kind === 'offline' ? await tiktok.listOfflineEventSets(accessToken, advertiserId) : await tiktok.listCrmEventSets(accessToken, advertiserId);
  if (result.outcome !== 'success') return result;
  const data = result.body.data;
  const sets = data === undefined ? undefined : 'event_set_list' in data ? data.event_set_list : data.crm_event_sets;
  return { ...result, body: { ...result.body, data: choices(sets) } };
}

/** An OAuth grant's scopes tell before TikTok is asked; a manual token's (null) are unknown until TikTok refuses. */
export function grantLacksListPermission(kind: EventSetKind, grantedScopes: readonly string[] | null): boolean {
  return grantedScopes !== null && !EVENT_SET_PERMISSIONS[kind].grantedBy.some((id) => grantedScopes.includes(id));
}

export function refusedForPermission(result: TikTokCallResult<unknown>): result is TikTokPermanent {
  return result.outcome === 'permanent' && result.code === NO_PERMISSION_CODE;
}
