import os from 'node:os';
import { run } from '../../cli/program';
import { TEST_ADMIN_TOKEN } from './test-app';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs one `signalbox` command line in this process, as a user would with `env` and `cwd`, and collects its output. */
export async function runSignalbox(args: string[], { env, cwd }: { env: NodeJS.ProcessEnv; cwd: string }): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await run(args, { out: (text) => out.push(text), err: (text) => err.push(text), env, cwd });
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

/** The environment an operator's `signalbox` uses to reach the settings API at `url` (a test app's admin token). */
export const adminApiEnv = (url: string): NodeJS.ProcessEnv => ({ SIGNALBOX_URL: url, SIGNALBOX_ADMIN_TOKEN: TEST_ADMIN_TOKEN });

/** Runs `signalbox` against the settings API at `url`, from a directory that holds no dev stack's settings. */
export const runAgainst = (url: string, args: string[]): Promise<CliRun> => runSignalbox(args, { env: adminApiEnv(url), cwd: os.tmpdir() });
