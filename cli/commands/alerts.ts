import type { Command } from 'commander';
import type { TestAlertView } from '../../contract/alert-views';
import { CliError } from '../errors';
import { act, type CliIo } from '../session';

export function testAlertText({ outcomes }: TestAlertView): string {
  return outcomes
    .map((o) => {
      const where = o.channel === 'email' ? `Email to ${o.recipients.join(', ') || 'nobody'}` : 'Webhook';
      return `${where}: ${o.sent ? 'sent' : `not sent: ${o.error ?? 'unknown error'}`}`;
    })
    .join('\n');
}

export function registerAlertCommands(program: Command, io: CliIo): void {
  const alerts = program.command('alerts').description("the workspace's alerts (set up in the console's Alerts page)");
  alerts
    .command('test')
    .argument('<workspaceId>')
    .description('send a test alert through the saved email and webhook, on a worker, and say how each went')
    .action(
      act(io, async ({ request, print }, workspaceId: string) => {
        const answer = await request<TestAlertView>('POST', `/admin/workspaces/${encodeURIComponent(workspaceId)}/alerts/test`);
        print(answer, testAlertText);
        if (answer.outcomes.some((o) => !o.sent)) throw new CliError('the test alert could not be sent on every channel');
      }),
    );
}
