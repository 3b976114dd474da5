import { ServiceError } from '@temporalio/client';
import { describeInternalError, isolateCulprits, isUnavailable } from './culprits';

/** Shaped as pg's DatabaseError once knex has put the statement and its values in front of PostgreSQL's message. */
function postgresError(code: string, message: string): Error {
  return Object.assign(new Error(`update "conversions" set "ttp" = 'ttp-visitor-7' where "id" = 'c-1' - ${message}`), { code, severity: 'ERROR' });
}

/** A Temporal client call that failed with this gRPC status code. */
function temporalError(grpcCode: number): ServiceError {
  return new ServiceError('Temporal call failed', { cause: Object.assign(new Error('grpc'), { code: grpcCode, details: '', metadata: {} }) });
}

describe('isUnavailable: waited out, never blamed on a conversion', () => {
  it.each([
    ['connection refused', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['connection terminated', new Error('Connection terminated unexpectedly')],
    ['no pooled connection in time', Object.assign(new Error('Knex: Timeout acquiring a connection.'), { name: 'KnexTimeoutError' })],
    ['no answer to a query (pg query_timeout)', new Error('select 1 - Query read timeout')],
    ['statement_timeout (57014)', postgresError('57014', 'canceling statement due to statement timeout')],
    ['admin shutdown (57P01)', postgresError('57P01', 'terminating connection due to administrator command')],
    ['cannot connect now (57P03)', postgresError('57P03', 'the database system is starting up')],
    ['connection failure (08006)', postgresError('08006', 'connection failure')],
    ['too many connections (53300)', postgresError('53300', 'sorry, too many clients already')],
    ['serialization failure (40001)', postgresError('40001', 'could not serialize access due to concurrent update')],
    ['deadlock (40P01)', postgresError('40P01', 'deadlock detected')],
    ['Temporal unavailable (gRPC 14)', temporalError(14)],
    ['Temporal deadline exceeded (gRPC 4)', temporalError(4)],
  ])('%s', (_case, error) => {
    expect(isUnavailable(error)).toBe(true);
  });

  it.each([
    ['a date PostgreSQL cannot read (22009)', postgresError('22009', 'time zone displacement out of range: "+010000-01-01T00:04:59.000Z"')],
    ['a NUL in text (22P05)', postgresError('22P05', 'unsupported Unicode escape sequence')],
    ['a broken constraint (23514)', postgresError('23514', 'new row violates check constraint')],
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'anonymousId')")],
    ['a date JavaScript cannot write', new RangeError('Invalid time value')],
    ['Temporal refusing a request (gRPC 3, invalid argument)', temporalError(3)],
    ['something thrown that is not an Error', 'no'],
  ])('not %s', (_case, error) => {
    expect(isUnavailable(error)).toBe(false);
  });
});

describe('describeInternalError: what the culprit’s timeline says', () => {
  it('keeps PostgreSQL’s words and SQLSTATE, not the statement and the other conversions’ values knex put in front', () => {
    expect(describeInternalError(postgresError('22009', 'time zone displacement out of range: "+010000-01-01T00:04:59.000Z"'))).toBe(
      'PostgreSQL 22009: time zone displacement out of range: "+010000-01-01T00:04:59.000Z"',
    );
  });

  it('names any other error by its class and message', () => {
    expect(describeInternalError(new TypeError("Cannot read properties of undefined (reading 'anonymousId')"))).toBe("TypeError: Cannot read properties of undefined (reading 'anonymousId')");
    expect(describeInternalError('thrown text')).toBe('Error: thrown text');
  });

  it('is storable in jsonb and short, whatever the error quoted', () => {
    const described = describeInternalError(new Error(`bad value "a\u0000b\ud800c" ${'x'.repeat(1_000)}`));
    expect(described.startsWith('Error: bad value "a b c" x')).toBe(true);
    expect(described).toHaveLength(500);
  });
});

describe('isolateCulprits: the conversions that break a step, found by halving the group', () => {
  /** A step's work that throws for any part holding a culprit, recording each part it was asked to do. */
  function stepBrokenBy(culprits: readonly number[], error: unknown = new TypeError('broken')) {
    const done: number[] = [];
    const runs: number[][] = [];
    const work = async (part: readonly number[]) => {
      runs.push([...part]);
      if (part.some((item) => culprits.includes(item))) throw error;
      done.push(...part);
    };
    return { work, done, runs };
  }

  const items = Array.from({ length: 1_000 }, (_, i) => i);

  it('blames only the culprits, with the error, and does the work once for every other conversion', async () => {
    const step = stepBrokenBy([17, 700]);
    const blamed: [number, unknown][] = [];
    expect(await isolateCulprits(items, step.work, async (culprit, error) => void blamed.push([culprit, error]))).toBe(2);
    expect(blamed).toEqual([
      [17, new TypeError('broken')],
      [700, new TypeError('broken')],
    ]);
    expect(step.done.sort((a, b) => a - b)).toEqual(items.filter((i) => i !== 17 && i !== 700));
    // About two runs per halving and culprit: 1,000 → 1 in 10 halvings.
    expect(step.runs.length).toBeLessThanOrEqual(1 + 2 * 2 * 10);
  });

  it('runs the whole group once and blames nobody when the work succeeds', async () => {
    const step = stepBrokenBy([]);
    expect(await isolateCulprits(items, step.work, async () => undefined)).toBe(0);
    expect(step.runs).toEqual([items]);
  });

  it('stops at unavailability and throws it to be retried, blaming nobody', async () => {
    const unavailable = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const step = stepBrokenBy([3], unavailable);
    const blamed: number[] = [];
    await expect(isolateCulprits(items, step.work, async (culprit) => void blamed.push(culprit))).rejects.toBe(unavailable);
    expect(blamed).toEqual([]);
    expect(step.runs).toHaveLength(1);
  });

  it('stops at unavailability met while halving: parts done before it stay done', async () => {
    let calls = 0;
    const done: number[] = [];
    const work = async (part: readonly number[]) => {
      calls += 1;
      if (calls === 1) throw new TypeError('broken');
      if (part.includes(900)) throw Object.assign(new Error('deadlock detected'), { code: '40P01', severity: 'ERROR' });
      done.push(...part);
    };
    await expect(isolateCulprits(items, work, async () => undefined)).rejects.toMatchObject({ code: '40P01' });
    expect(done).toEqual(items.slice(0, 500));
  });
});
