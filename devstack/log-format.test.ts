import { createLogFormatter } from './log-format';

describe('createLogFormatter', () => {
  let formatLogLine: ReturnType<typeof createLogFormatter>;
  beforeEach(() => {
    formatLogLine = createLogFormatter();
  });

  it('turns a pino line into level, message and its own fields', () => {
    const line = JSON.stringify({ level: 30, time: 1, pid: 2, hostname: 'vm', name: 'worker', msg: 'worker started', taskQueue: 'signalbox' });
    expect(formatLogLine(line)).toBe('INFO worker started taskQueue=signalbox');
  });

  it('prints a finished request as one line and drops the incoming one', () => {
    expect(formatLogLine(JSON.stringify({ level: 30, msg: 'incoming request', reqId: 'req-1', req: { method: 'POST', url: '/v1/batch' } }))).toBeUndefined();
    const done = JSON.stringify({ level: 30, msg: 'request completed', reqId: 'req-1', res: { statusCode: 200 }, responseTime: 12.4 });
    expect(formatLogLine(done)).toBe('INFO POST /v1/batch 200 12ms');
  });

  it('passes other text through', () => {
    expect(formatLogLine('ready postgres://x')).toBe('ready postgres://x');
  });
});
