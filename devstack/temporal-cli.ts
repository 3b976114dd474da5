import { execFile } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const TEMPORAL_CLI_MODULE = 'github.com/temporalio/cli/cmd/temporal@v1.5.1';

export type TemporalCli = { kind: 'binary'; path: string } | { kind: 'sdk-download' };

export interface LocateOptions {
  /** `TEMPORAL_CLI_PATH`: used as is, and an error when it is not an executable. */
  explicitPath?: string;
  /** The project's own tools directory (`.tools/bin`). */
  projectToolsDir: string;
  /** Build from the Go module when nothing is installed (takes minutes the first time). */
  allowBuild: boolean;
  /** Fall back to the Temporal SDK's own download (needs internet). */
  allowSdkDownload: boolean;
  log: (line: string) => void;
}

/** Where builds go: outside any clone, so every checkout on the machine (and CI) reuses it. */
export function cliCacheDir(): string {
  return path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'signalbox', 'bin');
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir !== '' && isExecutable(path.join(dir, name))) return path.join(dir, name);
  }
  return undefined;
}

async function goBinary(): Promise<string | undefined> {
  return onPath('go') ?? (isExecutable('/usr/local/go/bin/go') ? '/usr/local/go/bin/go' : undefined);
}

async function goPathBin(go: string): Promise<string> {
  const { stdout } = await run(go, ['env', 'GOPATH']);
  return path.join(stdout.trim(), 'bin');
}

/** Explicit path, then PATH, then the project's tools dir and the shared caches, then a Go build, then the SDK download. */
export async function locateTemporalCli(options: LocateOptions): Promise<TemporalCli> {
  if (options.explicitPath !== undefined) {
    if (!isExecutable(options.explicitPath)) throw new Error(`TEMPORAL_CLI_PATH=${options.explicitPath} is not an executable file`);
    return { kind: 'binary', path: options.explicitPath };
  }
  const go = await goBinary();
  const candidates = [onPath('temporal'), path.join(options.projectToolsDir, 'temporal'), path.join(cliCacheDir(), 'temporal')];
  if (go !== undefined) candidates.push(path.join(await goPathBin(go), 'temporal'));
  const found = candidates.find((candidate) => candidate !== undefined && isExecutable(candidate));
  if (found !== undefined) return { kind: 'binary', path: found };

  if (options.allowBuild && go !== undefined) {
    options.log(`Building the Temporal CLI (${TEMPORAL_CLI_MODULE}) into ${cliCacheDir()}; the first build takes a few minutes...`);
    await run(go, ['install', TEMPORAL_CLI_MODULE], { env: { ...process.env, GOBIN: cliCacheDir() }, maxBuffer: 64 * 1024 * 1024 });
    const built = path.join(cliCacheDir(), 'temporal');
    if (existsSync(built)) return { kind: 'binary', path: built };
  }
  if (options.allowSdkDownload) return { kind: 'sdk-download' };
  throw new Error(
    'No Temporal CLI found. Install one of: Go >= 1.25 (then it is built automatically with ' +
      `\`go install ${TEMPORAL_CLI_MODULE}\`), or the Temporal CLI from https://docs.temporal.io/cli on PATH, ` +
      'or set TEMPORAL_CLI_PATH to its binary, or set TEMPORAL_ADDRESS to an existing Temporal server.',
  );
}
