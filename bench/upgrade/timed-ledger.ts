import { Ledger, type Answer, type Source } from '../soak/ledger';

/** An answer to a request that carried a purchase or a cart (a message a rule maps), and when it came. */
interface ConversionAnswer {
  atMs: number;
  acknowledged: boolean;
}

/** The soak's ledger, also keeping when each request carrying a conversion was answered, and how. */
export class TimedLedger extends Ledger {
  readonly conversionAnswers: ConversionAnswer[] = [];

  override answered(source: Source, answer: Answer, messageIds: readonly string[]): void {
    super.answered(source, answer, messageIds);
    if (messageIds.some((id) => this.sent.get(id)?.eventId !== undefined)) {
      this.conversionAnswers.push({ atMs: performance.now(), acknowledged: typeof answer === 'number' && answer >= 200 && answer < 300 });
    }
  }
}

/**
 * The longest stretch in which requests carrying a conversion were refused (or not answered) and none was
 * acknowledged: from the first refusal after an acknowledgement to the next acknowledgement. 0 when none was refused.
 */
export function longestRefusalMs(answers: readonly ConversionAnswer[]): { ms: number; fromMs: number } {
  let longest = { ms: 0, fromMs: 0 };
  let refusedSince: number | undefined;
  for (const answer of [...answers].sort((a, b) => a.atMs - b.atMs)) {
    if (!answer.acknowledged) refusedSince ??= answer.atMs;
    else if (refusedSince !== undefined) {
      if (answer.atMs - refusedSince > longest.ms) longest = { ms: answer.atMs - refusedSince, fromMs: refusedSince };
      refusedSince = undefined;
    }
  }
  return longest;
}

/** The longest gap between two events TikTok accepted, among those accepted from `fromMs` (epoch ms) on. */
export function longestDeliveryPauseMs(receivedAt: readonly string[], fromMs: number): { ms: number; afterMs: number } {
  const times = receivedAt.map((at) => Date.parse(at)).filter((at) => at >= fromMs).sort((a, b) => a - b);
  let longest = { ms: 0, afterMs: fromMs };
  for (let i = 1; i < times.length; i += 1) {
    const gap = (times[i] as number) - (times[i - 1] as number);
    if (gap > longest.ms) longest = { ms: gap, afterMs: times[i - 1] as number };
  }
  return longest;
}
