import { dedupKey } from '../dedup-store';
import { noPixelPermission, OK, parameterError, type LogicalAnswer } from '../envelope';
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
 * `POST /open_api/v1.3/event/track/`: the whole request fails on the first invalid event (40002), the token must be
 * granted the pixel (40001), and accepted events are recorded with their 48 h dedup verdict.
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
      if (!call.grant.pixelCodes.includes(request.event_source_id)) return noPixelPermission(request.event_source_id);
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
