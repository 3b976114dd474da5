import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { listRunningStacks } from '../devstack/running-stacks';
import { findJsonSyntaxError } from '../domain/json-syntax';
import { CliError } from './errors';

export const DEV_STACK_FILE = path.join('.signalbox', 'dev-stack.json');

export interface Connection {
  url: string;
  /** Absent when nothing provides one; only `/admin` calls need it. */
  adminToken?: string;
  /** Where the URL came from (`--url`, `SIGNALBOX_URL`, or a dev stack's file), for --verbose and connection errors. */
  source: string;
}

interface DevStack {
  file: string;
  dataDir: string;
  running: boolean;
  url?: string;
  adminToken?: string;
}

/** `.signalbox/dev-stack.json` in `cwd` or the nearest parent directory that has one. */
export function findDevStackFile(cwd: string): string | undefined {
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, DEV_STACK_FILE);
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

function readDevStack(file: string, running: boolean): DevStack {
  const text = readFileSync(file, 'utf8');
  let parsed: { ingestUrl?: unknown; adminToken?: unknown };
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    const syntax = findJsonSyntaxError(text);
    throw new CliError(`${file} is not valid JSON${syntax === undefined ? '' : `: ${syntax.reason} (line ${syntax.line}, column ${syntax.column})`}`);
  }
  const value = (field: unknown) => (typeof field === 'string' && field !== '' ? field : undefined);
  return { file, dataDir: path.dirname(file), running, url: value(parsed.ingestUrl), adminToken: value(parsed.adminToken) };
}

const canonical = (dir: string) => (existsSync(dir) ? realpathSync(dir) : path.resolve(dir));

/** The dev stacks the CLI could mean: the nearest `.signalbox` upwards from `cwd`, and every stack running now. */
function candidateStacks(env: NodeJS.ProcessEnv, cwd: string): { dataDir: string; file: string; running: boolean }[] {
  const byDir = new Map<string, { dataDir: string; file: string; running: boolean }>();
  const nearest = findDevStackFile(cwd);
  if (nearest !== undefined) byDir.set(canonical(path.dirname(nearest)), { dataDir: path.dirname(nearest), file: nearest, running: false });
  for (const stack of listRunningStacks(env)) {
    const key = canonical(stack.dataDir);
    const known = byDir.get(key);
    byDir.set(key, { dataDir: known?.dataDir ?? stack.dataDir, file: known?.file ?? path.join(stack.dataDir, 'dev-stack.json'), running: true });
  }
  return [...byDir.values()].filter((stack) => existsSync(stack.file));
}

/**
 * The dev stack to talk to: `SIGNALBOX_DATA_DIR`'s when set, else the only candidate. Two candidates (say the
 * `.signalbox` of this project and a stack started elsewhere with another SIGNALBOX_DATA_DIR) are refused by name.
 */
function chooseDevStack(env: NodeJS.ProcessEnv, cwd: string): (DevStack & { source: string }) | undefined {
  const dataDir = env.SIGNALBOX_DATA_DIR;
  if (dataDir !== undefined && dataDir !== '') {
    const file = path.resolve(cwd, dataDir, 'dev-stack.json');
    if (!existsSync(file)) throw new CliError(`SIGNALBOX_DATA_DIR is ${dataDir}, but ${file} does not exist: start the dev stack with that SIGNALBOX_DATA_DIR, or unset it`);
    const running = listRunningStacks(env).some((stack) => canonical(stack.dataDir) === canonical(path.dirname(file)));
    return { ...readDevStack(file, running), source: `SIGNALBOX_DATA_DIR=${dataDir}: ${file}` };
  }
  const candidates = candidateStacks(env, cwd);
  if (candidates.length > 1) {
    const lines = candidates.map((stack) => {
      const { url } = readDevStack(stack.file, stack.running);
      return `  ${stack.dataDir}  (${url ?? 'no ingest URL yet'}, ${stack.running ? 'running' : 'not running'})`;
    });
    throw new CliError(['more than one dev stack could be meant, so none is used:', ...lines, 'Set SIGNALBOX_DATA_DIR to one of these folders, or pass --url and --token.'].join('\n'));
  }
  const [only] = candidates;
  return only && { ...readDevStack(only.file, only.running), source: only.file };
}

const sameUrl = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

/**
 * The server URL from the first of: `--url`, `SIGNALBOX_URL`, the dev stack (see {@link chooseDevStack}); the admin
 * token from `--token`, `SIGNALBOX_ADMIN_TOKEN`, else the dev stack that serves that URL (never another one's).
 */
export function resolveConnection(flags: { url?: string; token?: string }, env: NodeJS.ProcessEnv, cwd: string): Connection {
  const token = flags.token ?? env.SIGNALBOX_ADMIN_TOKEN;
  const explicitUrl = flags.url ?? env.SIGNALBOX_URL;
  if (explicitUrl !== undefined) {
    const source = flags.url !== undefined ? '--url' : 'SIGNALBOX_URL';
    if (token !== undefined) return { url: explicitUrl, adminToken: token, source };
    const serving = candidateStacks(env, cwd).map((stack) => readDevStack(stack.file, stack.running)).find((stack) => stack.url !== undefined && sameUrl(stack.url, explicitUrl));
    return { url: explicitUrl, adminToken: serving?.adminToken, source };
  }
  const stack = chooseDevStack(env, cwd);
  if (stack === undefined) {
    throw new CliError(`no server URL: pass --url, set SIGNALBOX_URL or SIGNALBOX_DATA_DIR, or start the dev stack (it writes ${DEV_STACK_FILE})`);
  }
  if (stack.url === undefined) throw new CliError(`${stack.file} names no server yet: the dev stack writes it once it is running (npm start)`);
  return { url: stack.url, adminToken: token ?? stack.adminToken, source: stack.source };
}
