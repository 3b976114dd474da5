import { ApiError } from './errors';
import { inFlagTerms } from './flag-errors';

const settingsFlags = { attributionWindowDays: '--window', testMode: '--test-mode', testEventCode: '--test-event-code', allowedOrigins: '--allowed-origins' };

describe('inFlagTerms', () => {
  it("names the flag a person typed instead of the API's field", () => {
    const error = inFlagTerms(new ApiError(400, 'invalid_request', 'x', ['attributionWindowDays must be a whole number of days from 1 to 90']), settingsFlags);
    expect(error.message).toBe('--window must be a whole number of days from 1 to 90');
    expect(error.issues).toEqual(['--window must be a whole number of days from 1 to 90']);
  });

  it('replaces field names further in the text only when they cannot be plain words', () => {
    const message = 'testEventCode is required while testMode is true: copy it from TikTok Events Manager > Test events';
    expect(inFlagTerms(new ApiError(400, 'invalid_request', message, [message]), settingsFlags).message).toBe(
      '--test-event-code is required while --test-mode is true: copy it from TikTok Events Manager > Test events',
    );
    const valueIssue = inFlagTerms(new ApiError(400, 'invalid_request', 'x', ['value.amount must be a number']), { 'value.amount': '--fixed', value: 'the value' });
    expect(valueIssue.message).toBe('--fixed must be a number');
    const plain = inFlagTerms(new ApiError(400, 'invalid_request', 'x', ['event must not be empty; the value is kept']), { event: '<event>', value: '--value' });
    expect(plain.message).toBe('<event> must not be empty; the value is kept');
  });

  it('points at the item of a list flag, counting from one', () => {
    const error = inFlagTerms(new ApiError(400, 'invalid_request', 'x', ['allowedOrigins[1] must be an origin']), settingsFlags);
    expect(error.issues).toEqual(['--allowed-origins (item 2) must be an origin']);
  });

  it('names path arguments and leaves text about no known field alone', () => {
    expect(inFlagTerms(new ApiError(400, 'invalid_request', 'x', ['workspaceId must be at most 100 characters']), {}).message).toBe('<workspaceId> must be at most 100 characters');
    expect(inFlagTerms(new ApiError(404, 'not_found', 'workspace ws_1 does not exist'), settingsFlags).message).toBe('workspace ws_1 does not exist');
  });
});
