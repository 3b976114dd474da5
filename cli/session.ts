import type { Command } from 'commander';
import { createApiClient, type ApiRequest } from './api-client';
import { resolveConnection } from './connection';

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  env: NodeJS.ProcessEnv;
  cwd: string;
  fetch?: typeof fetch;
}

export interface Session {
  request: ApiRequest;
  /** Prints `value` as JSON with `--json`, else the readable text `render` makes of it. */
  print<T>(value: T, render: (value: T) => string): void;
}

function rootOf(command: Command): Command {
  let root = command;
  while (root.parent) root = root.parent;
  return root;
}

/**
 * Wraps a command handler: the connection comes from the root's `--url`/`--token` (read from the root only, since
 * `tiktok set` has a `--token` of its own), and `--json` may be given before or after the subcommand.
 */
export function act<Args extends unknown[]>(io: CliIo, handler: (session: Session, ...args: Args) => Promise<void>) {
  return async (...commanderArgs: unknown[]) => {
    const command = commanderArgs.at(-1) as Command;
    const global = rootOf(command).opts<{ url?: string; token?: string; json?: boolean }>();
    const json = global.json === true || command.opts<{ json?: boolean }>().json === true;
    const request = createApiClient(resolveConnection(global, io.env, io.cwd), io.fetch);
    const print: Session['print'] = (value, render) => io.out(json ? JSON.stringify(value, null, 2) : render(value));
    await handler({ request, print }, ...(commanderArgs.slice(0, -1) as Args));
  };
}
