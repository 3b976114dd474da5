export { tearDownTestRun as default } from './test-run';
