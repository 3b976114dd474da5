import type { Command } from 'commander';
import type { ApiKeysView, ApiKeyView, CreatedApiKeyView } from '../../contract/views';
import { CliError } from '../errors';
import { formatRecord, formatTable } from '../output';
import { act, type CliIo } from '../session';

const keysPath = (workspaceId: string) => `/admin/workspaces/${encodeURIComponent(workspaceId)}/api-keys`;

export function registerKeyCommands(program: Command, io: CliIo): void {
  const keys = program.command('keys').description('manage the API keys that send events (secret dk_ keys for servers, pk_ for browsers, ak_ for mobile apps)');

  keys
    .command('create <workspaceId>')
    .description('create an API key; the full key is shown only this once')
    .requiredOption('--name <name>', 'what the key is for, e.g. backend')
    .option('--browser', "a browser key (pk_) for web pages: it can only send events, only from the workspace's allowed origins")
    .option('--app', 'an app key (ak_) to ship inside mobile apps: it can only send events, and they are sent to TikTok as app events')
    .action(
      act(io, async ({ request, print }, workspaceId: string, { name, browser, app }: { name: string; browser?: boolean; app?: boolean }) => {
        if (browser && app) throw new CliError('choose one of --browser and --app');
        const kind = browser ? 'browser' : app ? 'app' : 'secret';
        const created = await request<CreatedApiKeyView>('POST', keysPath(workspaceId), { body: { name, kind } });
        print(created, (key) => [formatRecord([['ID', key.id], ['Name', key.name], ['Kind', key.kind], ['Key', key.key]]), '', key.notice].join('\n'));
      }, { name: '--name', kind: '--browser or --app' }),
    );

  keys
    .command('list <workspaceId>')
    .description("list a workspace's API keys (never the keys themselves)")
    .action(
      act(io, async ({ request, print }, workspaceId: string) => {
        const { apiKeys } = await request<ApiKeysView>('GET', keysPath(workspaceId));
        print(apiKeys, (rows) =>
          formatTable(['id', 'name', 'kind', 'prefix', 'created', 'revoked'], rows.map((key) => [key.id, key.name, key.kind, `${key.displayPrefix}…`, key.createdAt, key.revokedAt])),
        );
      }),
    );

  keys
    .command('revoke <workspaceId> <keyId>')
    .description('revoke an API key; requests with it are refused from now on')
    .action(
      act(io, async ({ request, print }, workspaceId: string, keyId: string) => {
        const revoked = await request<ApiKeyView>('DELETE', `${keysPath(workspaceId)}/${encodeURIComponent(keyId)}`);
        print(revoked, (key) => `Revoked API key ${key.id} (${key.name}) at ${key.revokedAt}`);
      }),
    );
}
