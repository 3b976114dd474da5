import { spawn } from 'node:child_process';
import path from 'node:path';

/** The repository root: this file runs as dist/bench/containers/engine.js. */
export const ROOT = path.resolve(__dirname, '..', '..', '..');

/**
 * podman's settings on these machines (runc, explicit limits): containers.conf, named by CONTAINERS_CONF_OVERRIDE on
 * podman ≥ 4.4 and by CONTAINERS_CONF before (which replaces podman's file; its built-in defaults stay).
 */
export const PODMAN_ENV = {
  CONTAINERS_CONF: path.join(ROOT, 'containers', 'containers.conf'),
  CONTAINERS_CONF_OVERRIDE: path.join(ROOT, 'containers', 'containers.conf'),
};

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end; `check` makes a non-zero exit an error naming the command and its last output. */
export function run(command: string, args: readonly string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; check?: boolean; echo?: boolean } = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd ?? ROOT, env: { ...process.env, ...PODMAN_ENV, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (options.echo) process.stdout.write(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (options.echo) process.stderr.write(chunk);
    });
    child.once('error', reject);
    child.once('close', (code) => {
      const ran = { code: code ?? 1, stdout, stderr };
      if (options.check !== false && ran.code !== 0) {
        const tail = `${stdout}\n${stderr}`.trim().split('\n').slice(-15).join('\n');
        reject(new Error(`${command} ${args.join(' ')} exited ${ran.code}:\n${tail}`));
      } else resolve(ran);
    });
  });
}

/** The compose tool: COMPOSE (e.g. "docker compose"), else podman-compose. */
export function composeCommand(): string[] {
  return (process.env.COMPOSE ?? 'podman-compose').split(' ').filter((word) => word !== '');
}

/** One compose project of the compose file, with its variables. */
export class ComposeProject {
  constructor(
    readonly name: string,
    readonly env: NodeJS.ProcessEnv,
  ) {}

  compose(args: readonly string[], options: { check?: boolean; echo?: boolean } = {}): Promise<Ran> {
    const [tool, ...first] = composeCommand();
    return run(tool as string, [...first, '-p', this.name, '-f', path.join(ROOT, 'compose.yaml'), ...args], { ...options, env: this.env });
  }

  /** The container of a service (its first replica). */
  async container(service: string): Promise<string> {
    const { stdout } = await run('podman', ['ps', '-a', '--filter', `label=com.docker.compose.project=${this.name}`, '--filter', `label=com.docker.compose.service=${service}`, '--format', '{{.Names}}']);
    const name = stdout.trim().split('\n')[0];
    if (!name) throw new Error(`no container of the service ${service} in ${this.name}`);
    return name;
  }

  /** Runs a command in a service's container; `env` goes through podman's environment, so no value is in its arguments. */
  async exec(service: string, args: readonly string[], env: Record<string, string> = {}): Promise<string> {
    const envArgs = Object.keys(env).flatMap((name) => ['-e', name]);
    return (await run('podman', ['exec', ...envArgs, await this.container(service), ...args], { env })).stdout;
  }

  /** A query's rows as tab-separated lines, through psql in PostgreSQL's container. */
  async sql(query: string): Promise<string[]> {
    const out = await this.exec('postgres', ['psql', '-U', 'signalbox', '-d', 'signalbox', '-At', '-F', '\t', '-v', 'ON_ERROR_STOP=1', '-c', query]);
    return out.split('\n').filter((line) => line !== '');
  }

  /** What a container's HTTP endpoint inside it answers (the workers publish no port). */
  async fetchInside(service: string, url: string): Promise<string> {
    return this.exec(service, ['node', '-e', `fetch(${JSON.stringify(url)}).then((r) => r.text()).then((t) => process.stdout.write(t), (e) => { console.error(e.message); process.exit(1); })`]);
  }

  async inspect(service: string, format: string): Promise<string> {
    return (await run('podman', ['inspect', '--format', format, await this.container(service)])).stdout.trim();
  }
}
