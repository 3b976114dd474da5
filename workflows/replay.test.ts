import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { bundleWorkflowCode, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';

const HISTORIES = path.join(__dirname, '..', 'test', 'histories');
const files = readdirSync(HISTORIES).filter((file) => file.endsWith('.json'));
const silent = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, log() {} };

let bundle: WorkflowBundleWithSourceMap;
beforeAll(async () => {
  bundle = await bundleWorkflowCode({ workflowsPath: require.resolve('./index'), logger: silent });
}, 60_000);

it('has stored histories to replay', () => {
  expect(files.length).toBeGreaterThan(0);
});

// A change to workflow code that breaks determinism for runs already in flight fails here.
it.each(files)('replays %s against the current workflow code', async (file) => {
  const history = historyFromJSON(JSON.parse(readFileSync(path.join(HISTORIES, file), 'utf8')));
  await expect(Worker.runReplayHistory({ workflowBundle: bundle }, history, file)).resolves.toBeUndefined();
}, 30_000);
