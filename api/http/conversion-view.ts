import type { MessageConversion, MessagePosition } from '../../db/repositories/conversions';
import type { ListedEvent } from '../../db/repositories/event-listing';
import type { ConversionHistoryRow, ConversionRow, TikTokRequestRow } from '../../db/types';

/** The Temporal UI page of a workflow, of one of its runs when the run is known. */
export type WorkflowLink = (workflowId: string, runId: string | null) => string;

/** One line of the conversions list; `messageEvent` says which of the TikTok events sent for its message it is. */
export function conversionSummary(row: ConversionRow & MessagePosition) {
  return {
    id: row.id,
    status: row.status,
    reason: row.reason,
    sourceEvent: row.source_event,
    tiktokEvent: row.tiktok_event,
    eventSource: row.event_source,
    eventId: row.event_id,
    messageEvent: { position: row.message_position, of: row.message_conversions },
    eventTime: row.event_time,
    value: row.value,
    currency: row.currency,
    testMode: row.test_mode,
    /** Sent with no click inside the attribution window, for TikTok to match on its other keys (`matchWithoutClick`). */
    sentWithoutClick: row.sent_without_click,
    tiktokRequestId: row.tiktok_request_id,
    warnings: row.warnings,
    createdAt: row.created_at,
    completedAt: row.completed_at,
  };
}

/** The TikTok request a conversion went in: its envelope, how many events it carried and where this one was. */
function deliveryRequestView(request: TikTokRequestRow, conversionId: string) {
  return {
    id: request.id,
    eventSource: request.event_source,
    eventSourceId: request.event_source_id,
    testEventCode: request.test_event_code,
    events: request.conversion_ids.length,
    position: request.conversion_ids.indexOf(conversionId),
    sentAt: request.sent_at,
    answeredAt: request.answered_at,
    outcome: request.outcome,
    httpStatus: request.http_status,
  };
}

export interface ConversionRelated {
  /** The TikTok request it was last sent in. */
  deliveryRequest: TikTokRequestRow | undefined;
  history: ConversionHistoryRow[];
  /** Later events that repeated its order_id / event_id (stored, but no new conversion). */
  repeatedBy: readonly ListedEvent[];
  /** The conversions made from its message, itself included, in its rule's order. */
  ofMessage: readonly MessageConversion[];
}

/**
 * Everything an operator needs to explain a conversion: the click used, where each match key came from, the exact
 * (hashed) event and the request it went in, TikTok's answer, the timeline of its steps and delivery attempts, the
 * workflow (and run) that processed it, the later events that repeated it, and the other TikTok events sent for its
 * message.
 */
export function conversionDetail(row: ConversionRow, related: ConversionRelated, workflowLink?: WorkflowLink) {
  const { deliveryRequest, history, repeatedBy, ofMessage } = related;
  const position = { message_position: ofMessage.findIndex((c) => c.id === row.id) + 1, message_conversions: ofMessage.length };
  return {
    ...conversionSummary({ ...row, ...position }),
    workspaceId: row.workspace_id,
    messageId: row.message_id,
    workflowId: row.workflow_id,
    workflowRunId: row.workflow_run_id,
    workflowUrl: workflowLink ? workflowLink(row.workflow_id, row.workflow_run_id) : null,
    workflowStartedAt: row.workflow_started_at,
    attempts: row.attempts,
    click: { ttclid: row.ttclid, capturedAt: row.click_captured_at, anonymousId: row.click_anonymous_id, source: row.click_source },
    ttp: row.ttp,
    identityPath: row.identity_path,
    /** Where each match key sent to TikTok came from: the message, a linked visitor (its anonymous ID), or linked identities. */
    matchKeys: row.match_keys,
    requestPayload: row.request_payload,
    deliveryRequest: deliveryRequest === undefined ? null : deliveryRequestView(deliveryRequest, row.id),
    tiktokResponse: {
      code: row.tiktok_code,
      message: row.tiktok_message,
      requestId: row.tiktok_request_id,
      body: row.response_body,
    },
    timeline: history.map((entry) => ({ at: entry.at, step: entry.step, detail: entry.detail })),
    repeatedBy: repeatedBy.map((event) => ({ id: event.id, messageId: event.messageId, event: event.eventName, receivedAt: event.receivedAt })),
    /** Every TikTok event sent for the same message (several when its rule also sends it as other events). */
    messageEvents: ofMessage.map((c) => ({ id: c.id, tiktokEvent: c.tiktok_event, eventId: c.event_id, status: c.status })),
    updatedAt: row.updated_at,
  };
}
