import type { ListedEvent } from '../../../db/repositories/event-listing';
import type { ConversionRow } from '../../../db/types';

/** One line of the conversions list. */
export function conversionSummary(row: ConversionRow) {
  return {
    id: row.id,
    status: row.status,
    reason: row.reason,
    sourceEvent: row.source_event,
    tiktokEvent: row.tiktok_event,
    eventId: row.event_id,
    eventTime: row.event_time,
    value: row.value,
    currency: row.currency,
    testMode: row.test_mode,
    tiktokRequestId: row.tiktok_request_id,
    warnings: row.warnings,
    createdAt: row.created_at,
    completedAt: row.completed_at,
  };
}

/**
 * Everything an operator needs to explain a conversion: the click used, the exact (hashed) payload, TikTok's answer,
 * and the later events that repeated its order_id / event_id (stored, but no new conversion).
 */
export function conversionDetail(row: ConversionRow, repeatedBy: readonly ListedEvent[], workflowLink?: (workflowId: string) => string) {
  return {
    ...conversionSummary(row),
    workspaceId: row.workspace_id,
    messageId: row.message_id,
    eventSource: row.event_source,
    workflowId: row.workflow_id,
    workflowUrl: workflowLink ? workflowLink(row.workflow_id) : null,
    workflowStartedAt: row.workflow_started_at,
    attempts: row.attempts,
    click: { ttclid: row.ttclid, capturedAt: row.click_captured_at, anonymousId: row.click_anonymous_id },
    ttp: row.ttp,
    /** Where each match key sent to TikTok came from: the message, a linked visitor (its anonymous ID), or linked identities. */
    matchKeys: row.match_keys,
    requestPayload: row.request_payload,
    tiktokResponse: {
      code: row.tiktok_code,
      message: row.tiktok_message,
      requestId: row.tiktok_request_id,
      body: row.response_body,
    },
    repeatedBy: repeatedBy.map((event) => ({ id: event.id, messageId: event.messageId, event: event.eventName, receivedAt: event.receivedAt })),
    updatedAt: row.updated_at,
  };
}
