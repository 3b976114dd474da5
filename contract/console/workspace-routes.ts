import { z } from 'zod';
import { alertsView, savedAlertSettingsView, testAlertView } from '../alert-views';
import { alertSettingsBody, testAlertRefusals } from '../alerts';
import { consoleErasureLogView, consoleErasureView, consoleShopifyPrivacyRequestsView } from '../erasure-views';
import { erasureSubjectBody } from '../erasures';
import { changeLogPageView } from '../change-log-views';
import { debuggerBatchView } from '../debugger-views';
import { errorAnswer, errors } from '../errors';
import { jsonBody } from '../fields';
import { overviewView } from '../overview-views';
import { personView } from '../people-views';
import { setupView } from '../setup-views';
import { createdInvitationView, invitationView, memberView, membersView } from '../team-views';
import { consoleWorkspaceView, workspaceChangedView, workspaceView } from '../views';
import { createWorkspaceBody, inWorkspace, settingsChangesBody } from '../workspaces';
import { consoleRoute, consoleWorkspacePath } from './console-route';
import { emailField, periodFields, roleField } from './fields';

const limitMessage = 'must be a whole number from 1 to 200';

export const changeLogQuery = z.strictObject({
  limit: z.coerce.number({ error: limitMessage }).int().min(1, limitMessage).max(200, limitMessage).default(50),
  beforeId: z.string({ error: 'must be given once' }).regex(/^\d{1,19}$/, 'must be an entry ID').optional().meta({ description: 'The nextBeforeId of the previous page' }),
});

export const overviewQuery = z.strictObject(periodFields);

export const inviteBody = jsonBody({ email: emailField, role: roleField });
export const roleBody = jsonBody({ role: roleField });
export type InviteBody = z.input<typeof inviteBody>;
export const memberParams = z.object({ userId: z.string().min(1).max(100) });
export const invitationParams = z.object({ invitationId: z.string().min(1).max(100) });

/** A POST body, not a query string: request logs keep URLs, and an email or phone must not land there. */
export const lookupBody = z.strictObject({
  kind: z.enum(['anonymous_id', 'user_id', 'email', 'phone'], { error: 'must be anonymous_id, user_id, email or phone' }),
  value: z.string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be given once') }).trim().min(1, 'must not be empty').max(1024, 'must be at most 1024 characters'),
});

const debuggerId = z.string({ error: 'must be given once' }).regex(/^\d{1,19}$/, 'must be an ID returned by this endpoint');
export const debuggerQuery = z.strictObject({ afterEventId: debuggerId.optional(), afterRefusalId: debuggerId.optional() });

const path = consoleWorkspacePath;

export const CONSOLE_WORKSPACE_ROUTES = [
  consoleRoute({ method: 'GET', path: path(''), summary: 'The workspace, the person\'s role and the TikTok connection in brief', params: inWorkspace(), answers: { 200: { description: 'The workspace', schema: consoleWorkspaceView } } }),
  consoleRoute({
    method: 'PATCH',
    path: path(''),
    summary: 'Rename the workspace (the change log records it)',
    role: 'owner',
    params: inWorkspace(),
    body: createWorkspaceBody,
    answers: { 200: { description: 'The workspace renamed', schema: workspaceChangedView }, ...errors(400) },
  }),
  consoleRoute({
    method: 'PATCH',
    path: path('/settings'),
    summary: 'Change the workspace\'s settings',
    role: 'editor',
    params: inWorkspace(),
    body: settingsChangesBody,
    answers: { 200: { description: 'The workspace as changed', schema: workspaceView }, ...errors(400) },
  }),
  consoleRoute({ method: 'GET', path: path('/change-log'), summary: 'Who changed what, newest first', params: inWorkspace(), query: changeLogQuery, answers: { 200: { description: 'A page of entries', schema: changeLogPageView }, ...errors(400) } }),
  consoleRoute({ method: 'GET', path: path('/overview'), summary: 'The overview page\'s figures for a period', params: inWorkspace(), query: overviewQuery, answers: { 200: { description: 'The figures', schema: overviewView }, ...errors(400) } }),
  consoleRoute({ method: 'GET', path: path('/setup'), summary: 'The setup checklist', params: inWorkspace(), answers: { 200: { description: 'Each step and whether it is done', schema: setupView } } }),
  consoleRoute({ method: 'GET', path: path('/members'), summary: 'The people and pending invitations', params: inWorkspace(), answers: { 200: { description: 'The members, and the open invitations for an owner', schema: membersView } } }),
  consoleRoute({ method: 'PATCH', path: path('/members/:userId'), summary: 'Change a person\'s role', role: 'owner', params: inWorkspace(memberParams), body: roleBody, answers: { 200: { description: 'The member with the new role', schema: memberView }, ...errors(400, 409) } }),
  consoleRoute({ method: 'DELETE', path: path('/members/:userId'), summary: 'Remove a person from the workspace', role: 'owner', params: inWorkspace(memberParams), answers: { 200: { description: 'Removed', schema: z.strictObject({ removed: z.literal(true) }) }, ...errors(409) } }),
  consoleRoute({
    method: 'POST',
    path: path('/invitations'),
    summary: 'Invite a person: the invitation is mailed to them; without a mail server its link is answered, to pass on by hand',
    description: 'At most 20 invitations per person an hour (across workspaces) and 50 per workspace a day.',
    role: 'owner',
    params: inWorkspace(),
    body: inviteBody,
    answers: {
      201: { description: 'Invited, and mail: { sentTo } or { notSent: why }; `url` only when no mail server is set up', schema: createdInvitationView },
      ...errors(400, 409),
      429: errorAnswer('Too many invitations (`rate_limited`): the message says when the next can be sent; `Retry-After` gives the seconds'),
    },
  }),
  consoleRoute({ method: 'DELETE', path: path('/invitations/:invitationId'), summary: 'Withdraw an invitation', role: 'owner', params: inWorkspace(invitationParams), answers: { 200: { description: 'The invitation withdrawn', schema: invitationView } } }),
  consoleRoute({ method: 'GET', path: path('/alerts'), summary: 'The alert settings', params: inWorkspace(), answers: { 200: { description: 'The settings (the webhook URL as a hint only), the owners and the latest incidents', schema: alertsView } } }),
  consoleRoute({ method: 'PUT', path: path('/alerts'), summary: 'Save the alert settings', role: 'editor', params: inWorkspace(), body: alertSettingsBody, answers: { 200: { description: 'The settings as saved', schema: savedAlertSettingsView }, ...errors(400) } }),
  consoleRoute({ method: 'POST', path: path('/alerts/test'), summary: 'Send a test alert through the saved channels', role: 'editor', params: inWorkspace(), answers: { 200: { description: 'How each channel fared', schema: testAlertView }, ...testAlertRefusals } }),
  consoleRoute({ method: 'POST', path: path('/erasures'), summary: 'Erase a person\'s data', role: 'owner', params: inWorkspace(), body: erasureSubjectBody, answers: { 201: { description: 'What was erased', schema: consoleErasureView }, ...errors(400) } }),
  consoleRoute({ method: 'GET', path: path('/erasures'), summary: 'The log of erasures', params: inWorkspace(), answers: { 200: { description: 'The erasures', schema: consoleErasureLogView } } }),
  consoleRoute({ method: 'GET', path: path('/shopify-privacy-requests'), summary: 'Privacy requests from Shopify', params: inWorkspace(), answers: { 200: { description: 'The latest, newest first', schema: consoleShopifyPrivacyRequestsView } } }),
  consoleRoute({ method: 'POST', path: path('/people/lookup'), summary: 'Look a person up by anonymous ID, user ID, email or phone', params: inWorkspace(), body: lookupBody, answers: { 200: { description: 'The person\'s identities, events and conversions', schema: personView }, ...errors(400) } }),
  consoleRoute({ method: 'GET', path: path('/debugger'), summary: 'The event debugger: events and refusals after the given IDs', params: inWorkspace(), query: debuggerQuery, answers: { 200: { description: 'New events and refusals, and the cursor', schema: debuggerBatchView }, ...errors(400) } }),
  consoleRoute({
    method: 'GET',
    path: path('/debugger/stream'),
    summary: 'The event debugger as server-sent events',
    description: '`batch` events carry new events and refusals; `Last-Event-ID` resumes after the last one seen.',
    params: inWorkspace(),
    answers: { 200: { description: 'An event stream', contentType: 'text/event-stream' } },
  }),
];
