import type { Knex } from 'knex';
import { statementProfile, statsReported, type RelationBlocks } from '../growth/phase-cost';
import { summarize } from './stats';

/** One group's log line from the worker (`conversion group processed`). */
interface GroupLine {
  workspaceId: string;
  claimId: string;
  size?: number;
  /** When the line was written (epoch ms): the group's claim was `durationMs` before. */
  time: number;
  durationMs: number;
  stepsMs?: Record<string, number>;
}

/** When each of a phase's conversions was sent, acknowledged by ingest and received by TikTok (epoch ms, by order ID). */
export interface ConversionTimes {
  sentAt: Map<string, number>;
  ackedAt: Map<string, number>;
  arrivedAt: Map<string, number>;
}

const fmt = (n: number) => n.toFixed(1);

/**
 * BENCH_PROFILE=1: where a phase's conversions spent their time. The worker logs each group's step times
 * (`stepsMs`); per phase this prints them summed and per conversion, each conversion's latency cut into ingest's
 * answer, the wait until its group was claimed (the wake-up, the group before it, the batching window) and the group's
 * work until TikTok received it; and PostgreSQL's busiest statements and relations (pg_stat_statements must be
 * preloaded: shared_preload_libraries = 'pg_stat_statements').
 */
export function createPipelineProfile(db: Knex) {
  const groups: GroupLine[] = [];
  let relationsBefore: RelationBlocks = new Map();
  return {
    enabled: statementProfile.enabled,
    /** Reads the worker's output lines. */
    onWorkerLine(line: string): void {
      if (!line.includes('conversion group processed')) return;
      try {
        groups.push(JSON.parse(line) as GroupLine);
      } catch {
        // not a JSON log line
      }
    },
    async start(): Promise<void> {
      relationsBefore = await statementProfile.reset(db);
    },
    async print(title: string, workspaceId: string, times: ConversionTimes): Promise<void> {
      const mine = groups.filter((g) => g.workspaceId === workspaceId && g.stepsMs !== undefined);
      const conversions = mine.reduce((sum, g) => sum + (g.size ?? 0), 0);
      const steps = new Map<string, number>();
      for (const g of mine) for (const [part, ms] of Object.entries(g.stepsMs ?? {})) steps.set(part, (steps.get(part) ?? 0) + ms);
      const total = [...steps.values()].reduce((a, b) => a + b, 0);
      console.log(`\nProfile, ${title}: ${mine.length} groups, ${fmt(conversions / Math.max(1, mine.length))} conversions a group`);
      console.log(`  worker steps (ms in all / µs per conversion / share): ${[...steps].sort((a, b) => b[1] - a[1]).map(([part, ms]) => `${part} ${ms} / ${((ms * 1000) / Math.max(1, conversions)).toFixed(0)} / ${((100 * ms) / Math.max(1, total)).toFixed(0)}%`).join(', ')}`);

      const claimedAt = new Map(mine.map((g) => [g.claimId, g.time - g.durationMs]));
      const { rows } = await db.raw<{ rows: { event_id: string; claim_id: string }[] }>(
        'SELECT c.event_id, r.claim_id FROM conversions c JOIN tiktok_requests r ON r.id = c.delivery_request_id WHERE c.workspace_id = ?',
        [workspaceId],
      );
      const ingest: number[] = [];
      const toClaim: number[] = [];
      const work: number[] = [];
      for (const { event_id: orderId, claim_id: claimId } of rows) {
        const [sent, acked, arrived, claimed] = [times.sentAt.get(orderId), times.ackedAt.get(orderId), times.arrivedAt.get(orderId), claimedAt.get(claimId)];
        if (sent === undefined || acked === undefined || arrived === undefined || claimed === undefined) continue;
        ingest.push(acked - sent);
        toClaim.push(claimed - acked);
        work.push(arrived - claimed);
      }
      const line = (name: string, values: number[]) => {
        const s = summarize(values);
        return `${name} p50 ${s.p50.toFixed(0)} / p99 ${s.p99.toFixed(0)} ms`;
      };
      console.log(`  latency by segment (${ingest.length} conversions): ${line('ingest answer', ingest)}; ${line('answer → group claimed', toClaim)}; ${line('claimed → TikTok received', work)}`);
      await statsReported();
      await statementProfile.print(db, title, relationsBefore);
    },
  };
}

export type PipelineProfile = ReturnType<typeof createPipelineProfile>;
