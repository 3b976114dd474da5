import { hasAdvertisingId, readAppContext } from '../domain/app-context';
import { chooseClick } from '../domain/attribution';
import type { ActivityDeps } from './deps';
import { loadConversionContext } from './load';
import type { WindowResult } from './types';

/**
 * Step 3: no click, or a click older than the workspace's window, means the conversion is not sent (spec §4.3). An
 * app event that carries an advertising ID (IDFA, GAID) is sent all the same: TikTok attributes it by device, so a
 * click outside the window is dropped from it rather than sent.
 */
export async function checkAttributionWindow(deps: ActivityDeps, conversionId: string): Promise<WindowResult> {
  const { conversion, message, workspace } = await loadConversionContext(deps, conversionId);
  const clicks =
    conversion.ttclid !== null && conversion.click_captured_at !== null && conversion.click_anonymous_id !== null
      ? [{ anonymousId: conversion.click_anonymous_id, ttclid: conversion.ttclid, capturedAt: conversion.click_captured_at }]
      : [];
  const decision = chooseClick(clicks, conversion.event_time, workspace.attributionWindowDays);
  if (decision.attributed) return { eligible: true };
  if (conversion.event_source === 'app' && hasAdvertisingId(readAppContext(message))) {
    if (clicks.length > 0) await deps.repos.conversions.update(conversionId, { ttclid: null, click_captured_at: null, click_anonymous_id: null });
    return { eligible: true };
  }
  return { eligible: false, reason: decision.reason };
}
