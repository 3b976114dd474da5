import { redactUrl } from './request-log';

describe('redactUrl', () => {
  it.each([
    ['/v1/track?writeKey=pk_abc123def456ghi789jkl', '/v1/track?writeKey=[redacted]'],
    ['/v1/batch?token=s3cret&limit=5', '/v1/batch?token=[redacted]&limit=5'],
    ['/oauth/tiktok/callback?auth_code=one-time&state=signed.state', '/oauth/tiktok/callback?auth_code=[redacted]&state=[redacted]'],
    ['/x?code=1&key=2&api_key=3&apiKey=4&access_token=5&write_key=6', '/x?code=[redacted]&key=[redacted]&api_key=[redacted]&apiKey=[redacted]&access_token=[redacted]&write_key=[redacted]'],
    ['/x?WRITEKEY=a&%77riteKey=b', '/x?WRITEKEY=[redacted]&%77riteKey=[redacted]'],
    ['/v1/whatever/dk_0123456789abcdefghijklmnopqrstuv', '/v1/whatever/[redacted]'],
    ['/admin/workspaces/ws_1/reports?level=ad&from=2026-01-01', '/admin/workspaces/ws_1/reports?level=ad&from=2026-01-01'],
    ['/console/invitations/Xy9_-abcdefghijklmnopqrstuvwxyz0123456789ABCD', '/console/invitations/[redacted]'],
    ['/console/api/invitations/Xy9_-abcdefghijklmnopqrstuvwxyz0123456789ABCD/accept', '/console/api/invitations/[redacted]/accept'],
    ['/console/api/workspaces/ws_1/invitations/inv_0123abcd', '/console/api/workspaces/ws_1/invitations/inv_0123abcd'],
    ['/console/w/ws_1/people?email=jo%40shop.example', '/console/w/ws_1/people?email=[redacted]'],
    ['/console/api/workspaces/ws_1/conversions?q=Jo@Shop.example&status=failed&timeZone=UTC', '/console/api/workspaces/ws_1/conversions?q=[redacted]&status=failed&timeZone=UTC'],
    ['/console/w/ws_1/people?phone=%2B4915112345678', '/console/w/ws_1/people?phone=[redacted]'],
    ['/readyz', '/readyz'],
  ])('%s → %s', (url, redacted) => {
    expect(redactUrl(url)).toBe(redacted);
  });
});
