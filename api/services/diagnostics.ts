import type { Repositories } from '../../db/repositories';
import type { EventDiagnosticsView, SourceDiagnosticsView } from '../../contract/views';
import type { EventDiagnostics } from '../../db/repositories/diagnostics';
import { recommendsParameters } from '../../domain/recommended-parameters';
import type { TikTokEventSource } from '../../domain/tiktok-wire';
import { tiktokRefusalWords } from '../http/tiktok-refusal-words';

/** The refusal reasons shown per TikTok event, most frequent first. */
export const TOP_REFUSALS = 3;

const NOTHING: Omit<EventDiagnostics, 'tiktokEvent'> = {
  received: 0, delivered: 0, deliveredInTestMode: 0, pending: 0, skipped: 0, failed: 0, refused: 0, built: 0, missing: null, missingAny: 0, repeated: 0, repeats: 0, deliveredWithoutClick: 0,
};

/**
 * Per TikTok event, the diagnostics of the conversions whose event happened in [from, to), of one source when given:
 * every event the rules send (with nothing, when none came) and every event conversions were made for; the busiest
 * first. Beside them, what became of each source's conversions.
 */
export async function workspaceDiagnostics(
  repos: Pick<Repositories, 'diagnostics' | 'conversionRules'>,
  workspaceId: string,
  period: { from: Date; to: Date },
  source: TikTokEventSource | undefined,
): Promise<{ source: TikTokEventSource | null; events: EventDiagnosticsView[]; sources: SourceDiagnosticsView[] }> {
  const [found, rules] = await Promise.all([repos.diagnostics.diagnose(workspaceId, { ...period, source }), repos.conversionRules.list(workspaceId)]);
  const byEvent = new Map(found.events.map((event) => [event.tiktokEvent, event]));
  for (const name of rules.flatMap((rule) => [rule.tiktokEvent, ...rule.alsoSendAs])) {
    if (!byEvent.has(name)) byEvent.set(name, { tiktokEvent: name, ...NOTHING, missing: recommendsParameters(name) ? { value: 0, currency: 0, contents: 0 } : null });
  }
  const events = [...byEvent.values()]
    .sort((a, b) => b.received - a.received || a.tiktokEvent.localeCompare(b.tiktokEvent))
    .map((event) => ({
      ...event,
      withoutClickShare: event.delivered === 0 ? null : Math.round((event.deliveredWithoutClick / event.delivered) * 10_000) / 10_000,
      topRefusals: found.refusals
        .filter((group) => group.tiktokEvent === event.tiktokEvent)
        .slice(0, TOP_REFUSALS)
        .map(({ tiktokEvent: _event, ...group }) => ({ ...group, words: tiktokRefusalWords(group.tiktokCode) })),
    }));
  return { source: source ?? null, events, sources: found.sources };
}
