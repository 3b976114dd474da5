import type { Command } from 'commander';
import { createApiClient, type ApiRequest } from './api-client';
import { resolveConnection } from './connection';
import { ApiError } from './errors';
import { inFlagTerms, type FlagNames } from './flag-errors';

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
 * `tiktok set` has a `--token` of its own), and `--json` may be given before or after the subcommand. The server's
 * errors name the command's flags (`flags`: API field → flag) instead of API fields.
 */
export function act<Args extends unknown[]>(io: CliIo, handler: (session: Session, ...args: Args) => Promise<void>, flags: FlagNames = {}) {
  return async (...commanderArgs: unknown[]) => {
    const command = commanderArgs.at(-1) as Command;
    const global = rootOf(command).opts<{ url?: string; token?: string; json?: boolean; verbose?: boolean }>();
    const json = global.json === true || command.opts<{ json?: boolean }>().json === true;
    const connection = resolveConnection(global, io.env, io.cwd);
    if (global.verbose) io.err(`Signalbox at ${connection.url} (from ${connection.source})`);
    const request = createApiClient(connection, io.fetch);
    const print: Session['print'] = (value, render) => io.out(json ? JSON.stringify(value, null, 2) : render(value));
    try {
      await handler({ request, print }, ...(commanderArgs.slice(0, -1) as Args));
    } catch (error) {
      throw error instanceof ApiError ? inFlagTerms(error, flags) : error;
    }
  };
}
