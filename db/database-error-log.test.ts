import { DatabaseError } from 'pg';
import pino from 'pino';
import { databaseErrorLog, rememberStatement, withoutDatabaseValues } from './database-error-log';

const EMAIL = 'person@example.com';

/** An error as pg raises it from PostgreSQL's answer, with the fields that answer carried. */
function postgresError(message: string, fields: Partial<DatabaseError>): DatabaseError {
  return Object.assign(new DatabaseError(message, message.length, 'error'), { severity: 'ERROR', ...fields });
}

const uniqueEmail = () =>
  postgresError('duplicate key value violates unique constraint "users_email_unique"', {
    code: '23505',
    detail: `Key (email)=(${EMAIL}) already exists.`,
    schema: 'public',
    table: 'users',
    constraint: 'users_email_unique',
    routine: '_bt_check_unique',
  });

describe('what a log line carries of a PostgreSQL error', () => {
  it("keeps its SQLSTATE, message and names, never the detail that quotes the stored value", () => {
    expect(databaseErrorLog(new Error('storing the user failed', { cause: uniqueEmail() }))).toEqual({
      sqlstate: '23505',
      message: 'duplicate key value violates unique constraint "users_email_unique"',
      severity: 'ERROR',
      table: 'users',
      constraint: 'users_email_unique',
      routine: '_bt_check_unique',
    });
  });

  it("takes off the statement knex put before PostgreSQL's message, and a data exception's quoted value", () => {
    const statement = 'insert into "visitors" ("id") values ($1)';
    const refused = postgresError('invalid input syntax for type uuid: "person@example.com "quoted" too"', {
      code: '22P02',
      where: `unnamed portal parameter $1 = '${EMAIL}'`,
      routine: 'string_to_uuid',
    });
    refused.message = `${statement} - ${refused.message}`;
    rememberStatement(refused, statement);

    expect(databaseErrorLog(refused)).toEqual({ sqlstate: '22P02', message: 'invalid input syntax for type uuid: "…"', severity: 'ERROR', routine: 'string_to_uuid' });
  });

  it('is nothing for an error PostgreSQL did not raise', () => {
    expect(databaseErrorLog(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))).toBeUndefined();
  });

  it("replaces a logger's serialized PostgreSQL error, also as a cause, and leaves the other errors whole", () => {
    const failed = new Error('the deliver step failed', { cause: uniqueEmail() });
    const written = JSON.stringify(withoutDatabaseValues(pino.stdSerializers.errWithCause(failed), failed));

    expect(written).not.toContain(EMAIL);
    expect(JSON.parse(written)).toEqual({
      type: 'Error',
      message: 'the deliver step failed',
      stack: expect.stringContaining('the deliver step failed'),
      cause: {
        type: 'DatabaseError',
        code: '23505',
        message: 'duplicate key value violates unique constraint "users_email_unique"',
        severity: 'ERROR',
        table: 'users',
        constraint: 'users_email_unique',
        routine: '_bt_check_unique',
      },
    });
  });
});
