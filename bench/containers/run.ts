import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { reservePort, type ReservedPort } from '../../devstack/ports';
import { ComposeProject, run } from './engine';
import { buildSignalboxImage, buildSupportImages, imageSizeMb, LOCAL_NODE_BASE, LOCAL_POSTGRES, SIGNALBOX_IMAGE } from './images';
import { checkEachOnce, countedAtTikTok, fiveMinutePurchase, startLoad, waitUntil } from './purchases';

/**
 * `npm run test:containers` (issue 47): builds the image and brings compose.yaml up with podman here (PostgreSQL,
 * Temporal on it, the release steps, two APIs, two workers, the fake TikTok), sends the README's purchase through the
 * API container, kills a worker with SIGKILL and restarts an API under load, stops a worker with SIGTERM, runs the
 * release steps twice more, and brings it all down. Prints the figures; exits non-zero on any failure.
 * CONTAINERS_COLD=1 builds the image without the layer cache; CONTAINERS_KEEP=1 leaves the stack up.
 */
const log = (line: string) => console.log(`[containers] ${line}`);
const failures: string[] = [];
const figures: string[] = [];
function check(ok: boolean, what: string): void {
  log(`${ok ? 'ok' : 'FAIL'}: ${what}`);
  if (!ok) failures.push(what);
}

async function busyWorker(project: ComposeProject): Promise<string> {
  for (const worker of ['worker-1', 'worker-2']) {
    const metrics = await project.fetchInside(worker, 'http://127.0.0.1:9464/metrics').catch(() => '');
    if (/^signalbox_groups_processed_total/m.test(metrics)) return worker;
  }
  return 'worker-1';
}

async function workersReady(project: ComposeProject): Promise<boolean> {
  for (const worker of ['worker-1', 'worker-2']) {
    if (!(await project.fetchInside(worker, 'http://127.0.0.1:9464/readyz')).includes('"status":"ready"')) return false;
  }
  return true;
}

async function apisReady(urls: readonly string[]): Promise<boolean> {
  return (await Promise.all(urls.map((url) => fetch(`${url}/readyz`).then((answer) => answer.status === 200)))).every(Boolean);
}

async function exercise(project: ComposeProject, api: readonly string[], fakeUrl: string, adminToken: string, upAt: number): Promise<void> {
  await waitUntil('both APIs ready', () => apisReady(api), 600_000);
  await waitUntil('both workers ready', () => workersReady(project), 300_000);
  // podman-compose 1.0.3 starts the release with Temporal, not after it is healthy: its first `temporal setup` may fail
  // and `restart: on-failure` run the steps again, possibly while the services are already up.
  const releaseDone = () => project.inspect('release', '{{.State.Status}} {{.State.ExitCode}}').then((state) => state === 'exited 0');
  check(await waitUntil('the release steps to end', releaseDone, 120_000).then(() => true, () => false), 'the release steps ran and exited 0');
  for (const service of ['api-1', 'worker-1']) {
    const uid = (await project.exec(service, ['id', '-u'])).trim();
    check(uid !== '0', `${service} runs as a non-root user (uid ${uid})`);
  }

  const shop = await fiveMinutePurchase(project, api[0] as string, adminToken);
  await waitUntil("the README's purchase at the fake TikTok", async () => (await countedAtTikTok(fakeUrl)).get('A-1001') === 1, 300_000);
  figures.push(`from \`up\` to the first conversion delivered: ${((Date.now() - upAt) / 1000).toFixed(0)} s`);
  check((await project.sql(`select status from conversions where event_id = 'A-1001'`)).join() === 'delivered', "the README's purchase: one conversion, delivered, counted once by TikTok");

  log('purchases every 100 ms through both APIs; a worker killed with SIGKILL, then an API container restarted');
  const load = startLoad(api, shop.key, 1, 100);
  await sleep(8_000);
  const killed = await busyWorker(project);
  const killedContainer = await project.container(killed);
  await run('podman', ['kill', '--signal', 'KILL', killedContainer]);
  check((await project.inspect(killed, '{{.State.ExitCode}}')) === '137', `${killed} (the one delivering) killed with SIGKILL`);
  await run('podman', ['start', killedContainer]);
  await sleep(6_000);
  const restartedAt = Date.now();
  await run('podman', ['restart', '--time', '35', await project.container('api-1')]);
  figures.push(`API container restart (SIGTERM, exit, start) under load: ${((Date.now() - restartedAt) / 1000).toFixed(1)} s`);
  await sleep(8_000);
  await load.stop();
  check(load.unanswered.length === 0, `every purchase acknowledged (${load.acknowledged.length}; given up: ${load.unanswered.length})`);
  const problems = await checkEachOnce(project, fakeUrl, shop.workspaceId, load.acknowledged);
  check(problems.length === 0, `${load.acknowledged.length} purchases: each message stored once, each order one conversion delivered and counted once by TikTok${problems.length ? `: ${problems.slice(0, 5).join('; ')}` : ''}`);

  log('a worker stopped with SIGTERM under load');
  await waitUntil('both workers ready again', () => workersReady(project), 300_000);
  const second = startLoad(api, shop.key, 100_000, 100);
  await sleep(5_000);
  const stopped = await busyWorker(project);
  const stoppedAt = Date.now();
  await run('podman', ['stop', '--time', '20', await project.container(stopped)]);
  const stopMs = Date.now() - stoppedAt;
  const exitCode = await project.inspect(stopped, '{{.State.ExitCode}}');
  const logs = await run('podman', ['logs', await project.container(stopped)]);
  // The worker exits 0 once stopped within WORKER_SHUTDOWN_GRACE_MS, 1 at the bound; 137 would be podman's SIGKILL.
  check(exitCode === '0' && /"msg":"worker stopped"/.test(logs.stdout + logs.stderr), `${stopped} stopped on SIGTERM within its grace (exit ${exitCode}, "worker stopped" logged)`);
  figures.push(`worker container, SIGTERM to exit under load: ${stopMs} ms (grace WORKER_SHUTDOWN_GRACE_MS 15,000 ms)`);
  await run('podman', ['start', await project.container(stopped)]);
  await sleep(5_000);
  await second.stop();
  const secondProblems = await checkEachOnce(project, fakeUrl, shop.workspaceId, second.acknowledged);
  check(second.unanswered.length === 0 && secondProblems.length === 0, `${second.acknowledged.length} purchases around the SIGTERM: each stored once, delivered and counted once${secondProblems.length ? `: ${secondProblems.slice(0, 5).join('; ')}` : ''}`);

  for (const round of [1, 2]) {
    const again = await run('podman', ['start', '--attach', await project.container('release')], { check: false });
    const output = again.stdout + again.stderr;
    check(again.code === 0 && /up to date/.test(output) && /already there/.test(output), `release steps run again (${round}): exit ${again.code}, nothing to do`);
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  const { temporalImage } = await buildSupportImages(log);
  const buildSeconds = await buildSignalboxImage(log, { noCache: process.env.CONTAINERS_COLD === '1' });
  figures.push(`image build${process.env.CONTAINERS_COLD === '1' ? ' without cache' : ''}: ${buildSeconds.toFixed(0)} s`);
  for (const image of [SIGNALBOX_IMAGE, LOCAL_NODE_BASE, temporalImage, LOCAL_POSTGRES]) figures.push(`${image}: ${(await imageSizeMb(image)).toFixed(0)} MB`);
  const user = (await run('podman', ['image', 'inspect', '--format', '{{.Config.User}}', SIGNALBOX_IMAGE])).stdout.trim();
  check(user !== '' && !/^(0|root)(:|$)/.test(user), `the image's user is not root (${user})`);

  const ports: ReservedPort[] = await Promise.all([reservePort(), reservePort(), reservePort()]);
  const [api1, api2, fake] = ports.map((reserved) => reserved.port) as [number, number, number];
  const folder = mkdtempSync(path.join(os.tmpdir(), 'signalbox-compose-'));
  const password = randomBytes(16).toString('hex');
  const adminToken = randomBytes(24).toString('hex');
  const envFile = path.join(folder, 'signalbox.env');
  writeFileSync(
    envFile,
    [
      'POSTGRES_USER=signalbox',
      `POSTGRES_PASSWORD=${password}`,
      'POSTGRES_DB=signalbox',
      `DATABASE_URL=postgres://signalbox:${password}@postgres:5432/signalbox`,
      'DATABASE_POOL_MAX=5',
      `SECRET_KEY=${randomBytes(32).toString('hex')}`,
      `ADMIN_TOKEN=${adminToken}`,
      `PUBLIC_URL=http://127.0.0.1:${api1}`,
      'TEMPORAL_ADDRESS=temporal:7233',
      'TIKTOK_API_URL=http://tiktok-fake:9099',
      'LOG_LEVEL=info',
      '',
    ].join('\n'),
    { mode: 0o600 },
  );
  const project = new ComposeProject(`signalbox-test-${randomBytes(3).toString('hex')}`, {
    SIGNALBOX_ENV_FILE: envFile,
    SIGNALBOX_IMAGE,
    BASE_IMAGE: LOCAL_NODE_BASE,
    POSTGRES_IMAGE: LOCAL_POSTGRES,
    TEMPORAL_IMAGE: temporalImage,
    API_1_PUBLISH: `127.0.0.1:${api1}`,
    API_2_PUBLISH: `127.0.0.1:${api2}`,
    TIKTOK_FAKE_PUBLISH: `127.0.0.1:${fake}`,
  });
  let profile: string[] = [];
  try {
    const help = await project.compose(['--help'], { check: false });
    if (!help.stdout.includes('--profile')) log('this compose tool knows no profiles (Debian 12’s podman-compose 1.0.3): it starts the fake TikTok with the rest');
    profile = help.stdout.includes('--profile') ? ['--profile', 'dev'] : [];
    log(`compose up (project ${project.name})`);
    const upAt = Date.now();
    await project.compose([...profile, 'up', '-d'], { echo: process.env.CONTAINERS_VERBOSE === '1' });
    await exercise(project, [`http://127.0.0.1:${api1}`, `http://127.0.0.1:${api2}`], `http://127.0.0.1:${fake}`, adminToken, upAt);
  } catch (error) {
    check(false, (error as Error).message);
  } finally {
    if (failures.length > 0) {
      const logs = mkdtempSync(path.join(os.tmpdir(), 'signalbox-compose-logs-'));
      for (const service of ['postgres', 'temporal', 'release', 'api-1', 'api-2', 'worker-1', 'worker-2', 'tiktok-fake']) {
        const container = await project.container(service).catch(() => undefined);
        if (container === undefined) continue;
        const { stdout, stderr } = await run('podman', ['logs', container], { check: false });
        writeFileSync(path.join(logs, `${service}.log`), stdout + stderr);
      }
      log(`the containers' logs: ${logs}`);
    }
    if (process.env.CONTAINERS_KEEP !== '1') {
      const down = await project.compose([...profile, 'down', '-v'], { check: false });
      const left = await run('podman', ['ps', '-aq', '--filter', `label=com.docker.compose.project=${project.name}`]);
      check(down.code === 0 && left.stdout.trim() === '', 'compose down: every container and the volume removed');
    }
    for (const reserved of ports) reserved.release();
    rmSync(folder, { recursive: true, force: true });
  }
  figures.push(`whole run: ${((Date.now() - started) / 1000).toFixed(0)} s`);
  for (const figure of figures) log(figure);
  log(failures.length === 0 ? 'PASS' : `FAIL (${failures.length}): ${failures.join(' | ')}`);
  process.exitCode = failures.length === 0 ? 0 : 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
