import type { Command } from 'commander';
import type { ReadinessView } from '../../contract/operations';
import { act, type CliIo } from '../session';

export function registerHealthCommand(program: Command, io: CliIo): void {
  program
    .command('health')
    .description('check that the server is up and reaches its database')
    .action(
      act(io, async ({ request, print }) => {
        print(await request<ReadinessView>('GET', '/readyz', { admin: false }), ({ status }) => `Signalbox is ${status}`);
      }),
    );
}
