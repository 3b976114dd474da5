import { z } from 'zod';
import { createKeyBody, keyParams } from '../api-keys';
import { erasureLogView, erasureView } from '../erasure-views';
import { erasureSubjectBody } from '../erasures';
import { diagnosticsDaysQuery } from '../diagnostics';
import { testAlertView } from '../alert-views';
import { testAlertRefusals } from '../alerts';
import { addedMemberView, memberView } from '../team-views';
import { errors } from '../errors';
import { eventPageView, matchKeyCoverageView, ruleSuggestionsView } from '../event-views';
import { jsonBody, lineText, requiredText, sourceFilterField } from '../fields';
import { pastEventsPreview, pastEventsRun } from '../past-event-views';
import { pastEventsBody, pastEventsRefusals } from '../past-events';
import { eventParam, ruleBody } from '../rules';
import { apiKeysView, apiKeyView, createdApiKeyView, deletedRuleView, diagnosticsView, rulesView, ruleView, workspacesView, workspaceView } from '../views';
import { createWorkspaceBody, inWorkspace, settingsChangesBody } from '../workspaces';
import { adminRoute, inWorkspacePath } from './admin-route';

const limitMessage = 'must be a whole number from 1 to 200';
const limit = z.coerce.number({ error: limitMessage }).int(limitMessage).min(1, limitMessage).max(200, limitMessage).default(50);

export const erasureListQuery = z.strictObject({ limit });

export const eventListQuery = z.strictObject({
  limit,
  cursor: z.string({ error: 'must be given once' }).optional().meta({ description: 'The nextCursor of the previous page' }),
  event: z.string({ error: 'must be given once' }).trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional(),
});

const daysMessage = 'must be a whole number of days from 1 to 366';
export const matchKeyQuery = z.strictObject({
  days: z.coerce.number({ error: daysMessage }).int(daysMessage).min(1, daysMessage).max(366, daysMessage).default(30),
  source: sourceFilterField.meta({ description: 'Only the conversions from this source: offline and crm ones carry no click or cookie, so TikTok matches them on the person alone' }),
});

export const memberBody = jsonBody({
  email: requiredText(320).regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'must be an email address, e.g. jo@shop.example'),
  role: z.enum(['owner', 'editor', 'viewer'], { error: 'must be owner, editor or viewer' }).default('owner'),
  name: lineText(200).optional(),
  password: z
    .string({ error: 'must be a string' })
    .optional()
    .meta({
      description:
        'A new account signs in with it at once, confirmed (the operator vouches for the address); an account never confirmed gets it in place of its own; a confirmed account keeps its own. Without one, a new or never-confirmed address gets an invitation link instead of the role',
    }),
});

export const WORKSPACE_ROUTES = [
  adminRoute({
    method: 'POST',
    path: '/admin/workspaces',
    summary: 'Create a workspace',
    body: createWorkspaceBody,
    answers: { 201: { description: 'Created, with the default settings', schema: workspaceView }, ...errors(400) },
  }),
  adminRoute({
    method: 'GET',
    path: '/admin/workspaces',
    summary: 'List the workspaces',
    answers: { 200: { description: 'Every workspace', schema: workspacesView } },
  }),
  adminRoute({ method: 'GET', path: inWorkspacePath(''), summary: 'A workspace and its settings', params: inWorkspace(), answers: { 200: { description: 'The workspace', schema: workspaceView } } }),
  adminRoute({
    method: 'PATCH',
    path: inWorkspacePath('/settings'),
    summary: 'Change a workspace\'s settings',
    description: 'Only the fields given change; recorded in the change log. Test mode needs a test event code.',
    params: inWorkspace(),
    body: settingsChangesBody,
    bodyExample: { attributionWindowDays: 7, allowedOrigins: ['https://shop.example'] },
    answers: { 200: { description: 'The workspace as changed', schema: workspaceView }, ...errors(400) },
  }),
  adminRoute({
    method: 'POST',
    path: inWorkspacePath('/api-keys'),
    summary: 'Create an API key',
    description: 'The full key is in this answer only.',
    params: inWorkspace(),
    body: createKeyBody,
    answers: { 201: { description: 'The key, shown once', schema: createdApiKeyView }, ...errors(400) },
  }),
  adminRoute({
    method: 'GET',
    path: inWorkspacePath('/api-keys'),
    summary: 'List the API keys (without the keys themselves)',
    params: inWorkspace(),
    answers: { 200: { description: 'Every key, revoked ones too', schema: apiKeysView } },
  }),
  adminRoute({
    method: 'DELETE',
    path: inWorkspacePath('/api-keys/:keyId'),
    summary: 'Revoke an API key',
    params: inWorkspace(keyParams),
    answers: { 200: { description: 'The key as revoked', schema: apiKeyView } },
  }),
  adminRoute({
    method: 'GET',
    path: inWorkspacePath('/conversion-rules'),
    summary: 'List the conversion rules',
    params: inWorkspace(),
    answers: { 200: { description: 'The rules', schema: rulesView } },
  }),
  adminRoute({
    method: 'GET',
    path: inWorkspacePath('/conversion-rules/suggestions'),
    summary: 'Rules to add: events received lately that no rule maps',
    params: inWorkspace(),
    answers: { 200: { description: 'The suggestions', schema: ruleSuggestionsView } },
  }),
  adminRoute({
    method: 'PUT',
    path: inWorkspacePath('/conversion-rules/:event'),
    summary: 'Create or replace the rule of an event',
    params: inWorkspace(eventParam),
    body: ruleBody,
    bodyExample: { tiktokEvent: 'CompletePayment', value: { source: 'order_total', currency: 'USD' } },
    answers: { 200: { description: 'The rule as saved, and what was chosen in words', schema: z.strictObject({ ...ruleView.shape, chosen: z.string() }) }, ...errors(400) },
  }),
  adminRoute({
    method: 'DELETE',
    path: inWorkspacePath('/conversion-rules/:event'),
    summary: 'Delete the rule of an event',
    params: inWorkspace(eventParam),
    answers: { 200: { description: 'Deleted', schema: deletedRuleView } },
  }),
  adminRoute({
    method: 'POST',
    path: inWorkspacePath('/conversion-rules/:event/backfill'),
    summary: 'Send past events: count (dryRun) or convert the stored events of the last days that the rule maps now',
    description: 'Each becomes the conversion ingest would have made (the same event_id), once. Days are bounded by the attribution window, TikTok\'s 28 days and the event retention.',
    params: inWorkspace(eventParam),
    body: pastEventsBody,
    bodyExample: { days: 7, dryRun: true },
    answers: { 200: { description: 'The count, with dryRun', schema: pastEventsPreview }, 202: { description: 'The run, started', schema: pastEventsRun }, ...errors(400), ...pastEventsRefusals },
  }),
  adminRoute({
    method: 'GET',
    path: inWorkspacePath('/conversion-rules/:event/backfill'),
    summary: 'The rule\'s latest run of send past events, with its progress',
    params: inWorkspace(eventParam),
    answers: { 200: { description: 'The run', schema: pastEventsRun }, ...errors(404) },
  }),
  adminRoute({
    method: 'GET',
    path: inWorkspacePath('/diagnostics'),
    summary: 'Per TikTok event over the last days: received, delivered, refused by TikTok and why, missing recommended parameters, repeats, delivered without a click',
    params: inWorkspace(),
    query: diagnosticsDaysQuery,
    answers: { 200: { description: 'The diagnostics per TikTok event', schema: diagnosticsView }, ...errors(400) },
  }),
  adminRoute({
    method: 'POST',
    path: inWorkspacePath('/members'),
    summary: 'Add a person (the first owner, usually)',
    params: inWorkspace(),
    body: memberBody,
    answers: { 201: { description: 'Added, or invited (with the invitation link); `account` and `message` say what was done', schema: addedMemberView }, ...errors(400, 409) },
  }),
  adminRoute({ method: 'GET', path: inWorkspacePath('/members'), summary: 'List the people', params: inWorkspace(), answers: { 200: { description: 'The members', schema: z.strictObject({ members: z.array(memberView) }) } } }),
  adminRoute({
    method: 'POST',
    path: inWorkspacePath('/erasures'),
    summary: 'Erase a person\'s data',
    params: inWorkspace(),
    body: erasureSubjectBody,
    answers: { 201: { description: 'What was erased', schema: erasureView }, ...errors(400) },
  }),
  adminRoute({ method: 'GET', path: inWorkspacePath('/erasures'), summary: 'The log of erasures (identifiers as digests)', params: inWorkspace(), query: erasureListQuery, answers: { 200: { description: 'The erasures', schema: erasureLogView }, ...errors(400) } }),
  adminRoute({
    method: 'GET',
    path: inWorkspacePath('/events'),
    summary: 'Events received, newest first (without the messages)',
    params: inWorkspace(),
    query: eventListQuery,
    answers: { 200: { description: 'A page of events', schema: eventPageView }, ...errors(400) },
  }),
  adminRoute({
    method: 'GET',
    path: inWorkspacePath('/match-keys'),
    summary: 'Match key coverage of delivered conversions',
    params: inWorkspace(),
    query: matchKeyQuery,
    answers: { 200: { description: 'The share of conversions that carried each match key, and where the keys came from', schema: matchKeyCoverageView }, ...errors(400) },
  }),
  adminRoute({
    method: 'POST',
    path: inWorkspacePath('/alerts/test'),
    summary: 'Send a test alert through the saved channels',
    params: inWorkspace(),
    answers: { 200: { description: 'How each channel fared', schema: testAlertView }, ...testAlertRefusals },
  }),
];
