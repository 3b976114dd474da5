import { dedupKey } from '../dedup-store';
import { noEventSetPermission, noPixelPermission, OK, parameterError, type LogicalAnswer } from '../envelope';
import type { TrackRequest } from '../../../adplatform/tiktok/track-request/schema';
import { createTrackRequestValidator, parseTrackBody } from '../../../adplatform/tiktok/track-request/validate';
import { ROUTE_SCOPES } from '../scopes';
import type { FakeTikTokState } from '../state';
import type { TikTokCallContext, TikTokRouteDefinition } from '../tiktok-route';

export const EVENT_TRACK_PATH = '/open_api/v1.3/event/track/';

export interface EventTrackOptions {
  /** Reject plaintext email/phone/external_id with 40002 (TikTok's behaviour is UNVERIFIED, §3). */
  requireHashedPii: boolean;
}

/**
 * The Offline or CRM Event Sets of the token's advertisers, as the fake lists them (`offline/get`, `crm/list`); none
 * for web and app events, or when the seed gives its advertisers none.
 */
function knownEventSets(state: FakeTikTokState, call: TikTokCallContext, source: TrackRequest['event_source']): string[] {
  if (source !== 'offline' && source !== 'crm') return [];
  return call.grant.advertiserIds.flatMap((id) => {
    const seed = state.catalog.advertiser(id)?.seed;
    return (source === 'offline' ? seed?.offlineEventSets : seed?.crmEventSets)?.map((set) => set.eventSetId) ?? [];
  });
}

/** 40001 unless the token may send under the request's `event_source_id`: a known event set of its advertisers, else a granted ID. */
function permissionRefusal(state: FakeTikTokState, call: TikTokCallContext, request: TrackRequest): LogicalAnswer | undefined {
  const id = request.event_source_id;
  const eventSets = knownEventSets(state, call, request.event_source);
  if (eventSets.length > 0) return eventSets.includes(id) ? undefined : noEventSetPermission(id);
  return call.grant.pixelCodes.includes(id) ? undefined : noPixelPermission(id);
}

/**
 * `POST /open_api/v1.3/event/track/`: the whole request fails on the first invalid event (40002: an offline event must
 * be a standard one, a CRM event a custom one with its lead), the token must be granted the pixel, app or event set
 * (40001), and accepted events are recorded with their 48 h dedup verdict.
 */
export function eventTrackRoute(state: FakeTikTokState, options: EventTrackOptions): TikTokRouteDefinition {
  const validate = createTrackRequestValidator(options);
  return {
    method: 'POST',
    path: EVENT_TRACK_PATH,
    scopes: ROUTE_SCOPES.eventTrack,
    handle(call): LogicalAnswer {
      const parsed = parseTrackBody(call.rawBody);
      if (!parsed.ok) return parameterError(parsed.message);
      const validation = validate(parsed.body);
      if (!validation.ok) return parameterError(validation.message);
      const request = validation.request;
      const refusal = permissionRefusal(state, call, request);
      if (refusal !== undefined) return refusal;
      recordAccepted(state, call, request);
      return OK;
    },
  };
}

function recordAccepted(state: FakeTikTokState, call: TikTokCallContext, request: TrackRequest): void {
  const test = request.test_event_code !== undefined;
  state.log.addEvents(
    request.data.map((event) => ({
      requestId: call.requestId,
      receivedAt: call.now.toISOString(),
      answerCode: OK.code,
      eventSource: request.event_source,
      eventSourceId: request.event_source_id,
      event: event.event,
      eventId: event.event_id,
      eventTime: event.event_time,
      deduplicated:
        event.event_id !== undefined &&
        state.dedup.isDuplicate(
          dedupKey({ test, pixelCode: request.event_source_id, event: event.event, eventId: event.event_id }),
          call.now.getTime(),
        ),
      test,
      testEventCode: request.test_event_code,
      payload: event,
    })),
  );
}
