import type { Command } from 'commander';
import type { AddedMemberView } from '../../contract/team-views';
import { CliError } from '../errors';
import { formatRecord } from '../output';
import { act, type CliIo } from '../session';

const ROLES = ['owner', 'editor', 'viewer'] as const;

export function registerUserCommands(program: Command, io: CliIo): void {
  const users = program.command('users').description('people who sign in to the console');

  users
    .command('create <email>')
    .description('give a person a role in a workspace: with --password a new account signs in at once; without, a new person gets an invitation link; it prints what it did')
    .option('--owner <workspaceId>', 'as owner: everything, including people and API keys')
    .option('--editor <workspaceId>', 'as editor: rules, settings, the TikTok connection, test mode')
    .option('--viewer <workspaceId>', 'as viewer: read only')
    .option('--name <name>', 'how the console greets them')
    .option('--password <password>', 'a new account\'s password (at least 12 characters, not containing the email); an existing confirmed account keeps its own')
    .action(
      act(io, async ({ request, print }, email: string, options: Partial<Record<(typeof ROLES)[number], string>> & { name?: string; password?: string }) => {
        const chosen = ROLES.filter((role) => options[role] !== undefined);
        if (chosen.length !== 1) throw new CliError('give exactly one of --owner <workspaceId>, --editor <workspaceId>, --viewer <workspaceId>');
        const role = chosen[0] as (typeof ROLES)[number];
        const workspaceId = options[role] as string;
        const added = await request<AddedMemberView>('POST', `/admin/workspaces/${encodeURIComponent(workspaceId)}/members`, {
          body: { email, role, name: options.name, password: options.password },
        });
        print(added, (answer) =>
          answer.invitation === undefined
            ? [formatRecord([['User', answer.user?.id], ['Email', answer.user?.email], ['Role', `${answer.role} of ${workspaceId}`]]), '', answer.message].join('\n')
            : [formatRecord([['Invited', answer.invitation.email], ['Role', `${answer.role} of ${workspaceId}`], ['Expires', answer.invitation.expiresAt]]), '', answer.message, `Send them this link (single use): ${answer.invitationUrl}`].join('\n'),
        );
      }),
    );
}
