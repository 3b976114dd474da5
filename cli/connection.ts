import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CliError } from './errors';

export const DEV_STACK_FILE = path.join('.signalbox', 'dev-stack.json');

export interface Connection {
  url: string;
  /** Absent when nothing provides one; only `/admin` calls need it. */
  adminToken?: string;
}

interface DevStackFile {
  ingestUrl?: unknown;
  adminToken?: unknown;
}

/** `.signalbox/dev-stack.json` in `cwd` or the nearest parent directory that has one. */
export function findDevStackFile(cwd: string): string | undefined {
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, DEV_STACK_FILE);
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

function readDevStack(file: string): { url?: string; adminToken?: string } {
  let parsed: DevStackFile;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8')) as DevStackFile;
  } catch (error) {
    throw new CliError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  return { url: text(parsed.ingestUrl), adminToken: text(parsed.adminToken) };
}

/** Each setting from the first of: the flag, the environment, the dev stack's file. */
export function resolveConnection(flags: { url?: string; token?: string }, env: NodeJS.ProcessEnv, cwd: string): Connection {
  let devStack: { url?: string; adminToken?: string } | undefined;
  const fromDevStack = () => {
    if (devStack === undefined) {
      const file = findDevStackFile(cwd);
      devStack = file === undefined ? {} : readDevStack(file);
    }
    return devStack;
  };
  const url = flags.url ?? env.SIGNALBOX_URL ?? fromDevStack().url;
  if (url === undefined) {
    throw new CliError(`no server URL: pass --url, set SIGNALBOX_URL, or start the dev stack (it writes ${DEV_STACK_FILE})`);
  }
  return { url, adminToken: flags.token ?? env.SIGNALBOX_ADMIN_TOKEN ?? fromDevStack().adminToken };
}
