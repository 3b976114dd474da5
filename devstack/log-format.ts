const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const PLUMBING = new Set(['level', 'time', 'pid', 'hostname', 'name', 'msg', 'reqId', 'req', 'res', 'responseTime', 'sdkComponent']);

interface PinoLine {
  level?: number;
  msg?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
  [field: string]: unknown;
}

/**
 * Formats one process's pino JSON lines as readable lines: `INFO worker started taskQueue=signalbox`; a finished
 * HTTP request as `POST /v1/batch 200 12ms` (Fastify logs the method and URL only on the "incoming request" line,
 * which is held back until its request completes). Other text passes through.
 */
export function createLogFormatter() {
  const requests = new Map<string, { method?: string; url?: string }>();
  return function formatLogLine(line: string): string | undefined {
    let entry: PinoLine;
    try {
      entry = JSON.parse(line) as PinoLine;
    } catch {
      return line;
    }
    if (typeof entry !== 'object' || entry === null || typeof entry.level !== 'number') return line;
    const reqId = typeof entry.reqId === 'string' ? entry.reqId : '';
    if (entry.msg === 'incoming request') {
      requests.set(reqId, entry.req ?? {});
      return undefined;
    }
    const level = LEVELS[entry.level] ?? String(entry.level);
    if (entry.msg === 'request completed' && entry.res) {
      const req = requests.get(reqId) ?? {};
      requests.delete(reqId);
      return `${level} ${req.method ?? '?'} ${req.url ?? '?'} ${entry.res.statusCode} ${Math.round(entry.responseTime ?? 0)}ms`;
    }
    return describe(level, entry);
  };
}

function describe(level: string, entry: PinoLine): string {
  const extra = Object.entries(entry)
    .filter(([key]) => !PLUMBING.has(key))
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  const message = (entry.msg ?? '').split('\n')[0];
  return [level, message, ...extra].join(' ');
}
