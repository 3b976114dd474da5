import type { z } from 'zod';
import { describeIssues } from '../api/http/issues';
import { createKeyBody } from './api-keys';
import { acceptInvitationBody } from './console/account-routes';
import { inviteBody } from './console/workspace-routes';
import { lineText, requiredText } from './fields';
import { ruleBody } from './rules';
import { memberBody } from './settings-api/workspace-routes';
import { createSourceBody, updateSourceBody } from './webhook-sources';
import { createWorkspaceBody } from './workspaces';

const RULE = 'must not contain line breaks, tabs or other control characters';

/** The 400's issues for `body`, as the API words them. */
function issuesOf(schema: z.ZodType, body: unknown): string[] {
  const result = schema.safeParse(body);
  return result.success ? [] : describeIssues(result.error.issues, '', 'body');
}

describe('one-line text (names)', () => {
  it.each([
    ['CR LF', 'Shop\r\nBcc: x'],
    ['LF', 'Shop\nSecond line'],
    ['CR', 'Shop\rX'],
    ['TAB', 'Shop\tX'],
    ['NUL', 'Shop\u0000X'],
    ['ESC', 'Shop\u001b[31mX'],
    ['DEL', 'Shop\u007fX'],
    ['C1 (NEL)', 'Shop\u0085X'],
    ['line separator', 'Shop\u2028X'],
    ['paragraph separator', 'Shop\u2029X'],
    ['right-to-left override', 'Shop\u202Egnp.exe'],
    ['left-to-right isolate', 'Shop\u2066X\u2069'],
  ])('refuses a %s inside', (_what, name) => {
    expect(requiredText(200).safeParse(name).error?.issues.map((issue) => issue.message)).toEqual([RULE]);
    expect(lineText(200).safeParse(name).error?.issues.map((issue) => issue.message)).toEqual([RULE]);
  });

  it.each(['Fern shop', 'Café Ünïcødé — 東京店', 'O’Brien & Sons (EU)', 'שלום', 'Shop 🛍️', 'A\u00a0B'])('takes %j', (name) => {
    expect(requiredText(200).parse(name)).toBe(name);
  });

  it('trims the ends first: a pasted trailing line break is not refused, and not stored', () => {
    expect(requiredText(200).parse('  Fern shop\r\n')).toBe('Fern shop');
    expect(lineText(200).parse('\t')).toBe('');
    expect(requiredText(200).safeParse('\r\n').error?.issues.map((issue) => issue.message)).toEqual(['must not be empty']);
  });

  it('names the field in every name-like body: workspace, key, source, rule, invitation and member', () => {
    const bad = 'Shop\r\nBcc: x';
    expect(issuesOf(createWorkspaceBody, { name: bad })).toEqual([`name ${RULE}`]);
    expect(issuesOf(createKeyBody, { name: bad })).toEqual([`name ${RULE}`]);
    expect(issuesOf(createSourceBody, { type: 'shopify', name: bad })).toEqual([`name ${RULE}`]);
    expect(issuesOf(updateSourceBody, { name: bad })).toEqual([`name ${RULE}`]);
    expect(issuesOf(ruleBody, { tiktokEvent: bad, alsoSendAs: ['PlaceAnOrder', bad] })).toEqual([`tiktokEvent ${RULE}`, `alsoSendAs[1] ${RULE}`]);
    expect(issuesOf(inviteBody, { email: 'jo@shop.example\r\nBcc: x@evil.example', role: 'viewer' })).toContain(`email ${RULE}`);
    expect(issuesOf(acceptInvitationBody, { password: 'a long enough passphrase', name: bad })).toEqual([`name ${RULE}`]);
    expect(issuesOf(memberBody, { email: 'jo@shop.example', name: bad })).toEqual([`name ${RULE}`]);
  });
});
