import { chooseClick, latestCountedClickTime } from '../domain/attribution';
import { meaningfulIdentifier } from '../domain/identifiers';
import { readTtp } from '../domain/message';
import { messageIdentities } from '../domain/observation';
import type { ActivityDeps } from './deps';
import { loadConversionContext } from './load';
import type { IdentityResult } from './types';

/**
 * Step 2: every visitor linked to the converting user (same user ID, same anonymous ID, or the same hashed email or
 * phone on another device), and of their clicks the most recent one before the conversion, with the ad it came from
 * when its landing URL said so. `_ttp` comes from the converting device when known, else from the device that clicked.
 */
export async function resolveIdentity(deps: ActivityDeps, conversionId: string): Promise<IdentityResult> {
  const { profiles, conversions } = deps.repos;
  const { conversion, message, workspace } = await loadConversionContext(deps, conversionId);

  const seeds = messageIdentities(message, workspace.defaultPhoneRegion);
  const anonymousIds = await profiles.reachable(workspace.id, seeds, 'anonymous_id');
  const notAfter = latestCountedClickTime(conversion.event_time);
  const clicks = await profiles.recentClicks(workspace.id, anonymousIds, notAfter);
  const decision = chooseClick(
    clicks.map((c) => ({ anonymousId: c.anonymous_id, ttclid: c.ttclid, capturedAt: c.captured_at })),
    conversion.event_time,
    Number.POSITIVE_INFINITY,
  );
  const click = decision.attributed ? decision.click : undefined;
  // The ad the chosen click came from, so that delivered conversions can be set beside TikTok's figures per campaign.
  const clickRow = click && clicks.find((c) => c.ttclid === click.ttclid && c.anonymous_id === click.anonymousId);

  const visitors = await profiles.visitors(workspace.id, anonymousIds);
  const ttpOf = (anonymousId: string | undefined) => visitors.find((v) => v.anonymous_id === anonymousId)?.ttp ?? undefined;
  const ttp = readTtp(message) ?? ttpOf(meaningfulIdentifier(message.anonymousId)) ?? ttpOf(click?.anonymousId);

  await conversions.update(conversionId, {
    ttclid: click?.ttclid ?? null,
    click_captured_at: click?.capturedAt ?? null,
    click_anonymous_id: click?.anonymousId ?? null,
    click_campaign_id: clickRow?.campaign_id ?? null,
    click_adgroup_id: clickRow?.adgroup_id ?? null,
    click_ad_id: clickRow?.ad_id ?? null,
    ttp: ttp ?? null,
  });
  return { linkedVisitors: anonymousIds.length, clickCapturedAt: click?.capturedAt.toISOString() ?? null };
}
