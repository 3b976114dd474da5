import { run } from '../../cli/program';

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
