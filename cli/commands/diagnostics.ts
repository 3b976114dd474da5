import type { Command } from 'commander';
import type { DiagnosticsView } from '../../contract/views';
import { formatTable } from '../output';
import { act, type CliIo } from '../session';

const share = (value: number | null) => (value === null ? '-' : `${(value * 100).toFixed(1)}%`);

/** One row per TikTok event, then TikTok's refusals of each in words with an example conversion. */
export function diagnosticsText(view: DiagnosticsView): string {
  const rows = view.events.map((e) => [
    e.tiktokEvent,
    e.received,
    e.delivered,
    e.failed,
    e.skipped,
    e.refused,
    e.missing === null ? '-' : `${e.missingAny} of ${e.built}`,
    e.repeated,
    share(e.withoutClickShare),
  ]);
  const refusals = view.events.flatMap((e) =>
    e.topRefusals.map(
      (r) => `  ${e.tiktokEvent}: ${r.conversions} × ${r.words}${r.tiktokCode === null ? '' : ` (code ${r.tiktokCode})`}. Example: conversion ${r.example.conversionId} (event ID ${r.example.eventId})${r.example.message === null ? '' : `, TikTok said "${r.example.message}"`}`,
    ),
  );
  return [
    `${view.source === null ? 'Conversions' : `Conversions from ${view.source}`} whose event happened in the last ${view.days} days, per TikTok event.`,
    ...(view.sources.length === 0 ? [] : [`By source: ${view.sources.map((s) => `${s.source} ${s.received} received, ${s.delivered} delivered`).join('; ')}.`]),
    '"missing": sent without value, currency or contents, which TikTok recommends on events with an amount; "repeated":',
    'conversions whose order or event ID came again in later events; "no click": the share delivered without a TikTok click.',
    '',
    formatTable(['TikTok event', 'received', 'delivered', 'failed', 'skipped', 'refused by TikTok', 'missing', 'repeated', 'no click'], rows, { rightAligned: [1, 2, 3, 4, 5, 6, 7, 8] }),
    ...(refusals.length === 0 ? [] : ['', 'Why TikTok refused them:', ...refusals]),
  ].join('\n');
}

export function registerDiagnosticsCommands(program: Command, io: CliIo): void {
  program
    .command('diagnostics <workspaceId>')
    .description('per TikTok event: received, delivered, refused by TikTok and why, missing recommended parameters, repeated IDs, delivered without a click')
    .option('--days <n>', 'look back this many days (1-90)', '7')
    .option('--source <source>', 'only web, app, offline or crm conversions')
    .action(
      act(io, async ({ request, print }, workspaceId: string, flags: { days: string; source?: string }) => {
        const view = await request<DiagnosticsView>('GET', `/admin/workspaces/${encodeURIComponent(workspaceId)}/diagnostics`, { query: { days: flags.days, source: flags.source } });
        print(view, diagnosticsText);
      }),
    );
}
