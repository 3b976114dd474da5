import type { ConversionHistoryRow, ConversionRow, TikTokRequestRow } from '../../../db/types';

/** The Temporal UI page of a workflow, of one of its runs when the run is known. */
export type WorkflowLink = (workflowId: string, runId: string | null) => string;

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

/**
 * Everything an operator needs to explain a conversion: the click used, the exact (hashed) event and the request it
 * went in, TikTok's answer, and the workflow (and run) that processed it.
 */
export function conversionDetail(
  row: ConversionRow,
  related: { deliveryRequest: TikTokRequestRow | undefined; history: ConversionHistoryRow[] },
  workflowLink?: WorkflowLink,
) {
  const { deliveryRequest, history } = related;
  return {
    ...conversionSummary(row),
    workspaceId: row.workspace_id,
    messageId: row.message_id,
    eventSource: row.event_source,
    workflowId: row.workflow_id,
    workflowRunId: row.workflow_run_id,
    workflowUrl: workflowLink ? workflowLink(row.workflow_id, row.workflow_run_id) : null,
    workflowStartedAt: row.workflow_started_at,
    attempts: row.attempts,
    click: { ttclid: row.ttclid, capturedAt: row.click_captured_at, anonymousId: row.click_anonymous_id },
    ttp: row.ttp,
    requestPayload: row.request_payload,
    deliveryRequest: deliveryRequest === undefined ? null : deliveryRequestView(deliveryRequest, row.id),
    tiktokResponse: {
      code: row.tiktok_code,
      message: row.tiktok_message,
      requestId: row.tiktok_request_id,
      body: row.response_body,
    },
    identityPath: row.identity_path,
    timeline: history.map((entry) => ({ at: entry.at, step: entry.step, detail: entry.detail })),
    updatedAt: row.updated_at,
  };
}
