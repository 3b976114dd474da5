import { ApplicationFailure, Context } from '@temporalio/activity';
import type { TikTokCallResult } from '../adplatform/tiktok';
import type { TikTokTrackRequest } from '../adplatform/tiktok/types';
import type { ActivityDeps } from './deps';
import { loadConversion } from './load';
import { DELIVERY_FAILURE, type DeliveryFailureDetails, type DeliveryReceipt } from './types';

/** TikTok sends no Retry-After; its guidance is to wait from a second (QPS) to minutes (QPM), so back off hard. */
function throttleDelayMs(attempt: number): number {
  const base = Math.min(5_000 * 2 ** (attempt - 1), 300_000);
  return Math.round(base * (0.75 + Math.random() * 0.5));
}

function details(result: Exclude<TikTokCallResult<unknown>, { outcome: 'success' }>): DeliveryFailureDetails {
  return { code: result.code ?? null, message: result.message, requestId: result.requestId ?? null, httpStatus: result.httpStatus ?? null };
}

/**
 * Step 5 of the per-conversion workflow (kept for runs started before the group workflow): one `POST /event/track/`
 * with the stored payload. TikTok's answer is stored first, so a step run again after a crash (local activities are
 * recorded with the workflow task) finds TikTok's acceptance and does not send again. Transient answers throw a
 * retryable failure (throttling with a longer delay); anything else fails at once with TikTok's code and message
 * kept. A retry after a lost answer resends the same `event_id`, which TikTok deduplicates.
 */
export async function deliverToTikTok(deps: ActivityDeps, conversionId: string): Promise<DeliveryReceipt> {
  const conversion = await loadConversion(deps, conversionId);
  if (conversion.response_body !== null && conversion.tiktok_code !== null) {
    return { code: conversion.tiktok_code, message: conversion.tiktok_message ?? '', requestId: conversion.tiktok_request_id };
  }
  if (conversion.request_payload === null) throw ApplicationFailure.nonRetryable('no payload was built for this conversion', 'PayloadMissing');
  const connection = await deps.repos.tiktokConnections.withToken(conversion.workspace_id);
  if (connection === undefined) {
    const message = 'the TikTok connection was removed before delivery';
    throw ApplicationFailure.nonRetryable(message, DELIVERY_FAILURE.rejected, { code: null, message, requestId: null, httpStatus: null });
  }

  await deps.repos.conversions.incrementAttempts(conversionId);
  const result = await deps.tiktok.trackEvents(connection.accessToken, conversion.request_payload as unknown as TikTokTrackRequest);
  const answer = {
    tiktok_code: result.code ?? null,
    tiktok_message: result.message,
    tiktok_request_id: result.requestId ?? null,
    response_body: result.outcome === 'success' ? (result.body as unknown as Record<string, unknown>) : null,
  };
  await deps.repos.conversions.update(conversionId, answer);
  await deps.reached?.('answer-recorded');

  if (result.outcome === 'success') {
    return { code: result.code, message: result.message, requestId: result.requestId ?? null };
  }
  if (result.outcome === 'permanent') {
    if (result.tokenInvalid) await deps.repos.tiktokConnections.markReauthorizationRequired(conversion.workspace_id);
    throw ApplicationFailure.nonRetryable(`TikTok rejected the event: ${result.message}`, DELIVERY_FAILURE.rejected, details(result));
  }
  throw ApplicationFailure.create({
    message: `TikTok is unavailable: ${result.message}`,
    type: result.throttled ? DELIVERY_FAILURE.throttled : DELIVERY_FAILURE.transient,
    details: [details(result)],
    nextRetryDelay: result.throttled ? throttleDelayMs(Context.current().info.attempt) : undefined,
  });
}
