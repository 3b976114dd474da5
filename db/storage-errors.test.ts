import { StorageDeadlineError } from '../api/ingest/storage-deadline';
import { databaseErrorCode, isStorageUnavailable } from './storage-errors';

/** Shaped as pg's DatabaseError: SQLSTATE in `code`, and a `severity`. */
function postgresError(code: string, message = 'refused'): Error {
  return Object.assign(new Error(message), { code, severity: 'ERROR' });
}

describe('isStorageUnavailable: PostgreSQL cannot serve now, so the client retries', () => {
  it.each([
    ['statement_timeout fired (57014)', postgresError('57014', 'canceling statement due to statement timeout')],
    ['idle_in_transaction_session_timeout (25P03)', postgresError('25P03')],
    ['deadlock (40P01)', postgresError('40P01')],
    ['lock not available (55P03)', postgresError('55P03')],
    ['too many connections (53300)', postgresError('53300')],
    ['connection refused', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['no answer to a query (pg query_timeout)', new Error('insert into "events" ... - Query read timeout')],
    ['no answer while connecting (pg connectionTimeoutMillis)', new Error('timeout expired')],
    ['a ROLLBACK on the connection closed after a read timeout', new Error('ROLLBACK - Client was closed and is not queryable')],
    ['no pooled connection in time', Object.assign(new Error('Knex: Timeout acquiring a connection.'), { name: 'KnexTimeoutError' })],
    ["the request's storage deadline passed", new StorageDeadlineError(5_000)],
    ['wrapped in a cause', new Error('outer', { cause: new Error('Connection terminated unexpectedly') })],
  ])('%s', (_case, error) => {
    expect(isStorageUnavailable(error)).toBe(true);
  });

  it.each([
    ['a NUL PostgreSQL cannot store (22P05)', postgresError('22P05')],
    ['a numeric overflow (22003)', postgresError('22003')],
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
  ])('not for %s', (_case, error) => {
    expect(isStorageUnavailable(error)).toBe(false);
  });
});

describe('databaseErrorCode: anything else PostgreSQL refused', () => {
  it('is the SQLSTATE of an error PostgreSQL raised, found under causes too', () => {
    expect(databaseErrorCode(postgresError('22P05'))).toBe('22P05');
    expect(databaseErrorCode(new Error('outer', { cause: postgresError('22003') }))).toBe('22003');
  });

  it('is undefined for errors PostgreSQL did not raise, even with a code', () => {
    expect(databaseErrorCode(Object.assign(new Error('x'), { code: 'ECONNRESET' }))).toBeUndefined();
    expect(databaseErrorCode(Object.assign(new Error('x'), { code: 'FST_ERR_CTP_INVALID_JSON_BODY' }))).toBeUndefined();
    expect(databaseErrorCode(new RangeError('Maximum call stack size exceeded'))).toBeUndefined();
  });
});
