import { z } from 'zod';
import { adReport } from '../ad-report';
import { consoleConversionDetailView } from '../conversion-detail';
import { diagnosticsPeriodQuery } from '../diagnostics';
import { errors } from '../errors';
import { noAdvertiser, notConnected, scheduleUnavailable, testConversionRefused } from '../tiktok-answers';
import { consoleRulesView, pastEventsPreview, pastEventsRun } from '../past-event-views';
import { pastEventsBody, pastEventsRefusals } from '../past-events';
import { eventParam, ruleBody } from '../rules';
import { consoleRetryView, sendAgainCountView, sentAgainView } from '../send-again-views';
import { consoleStatsPullView, testConversionView } from '../tiktok-views';
import { consoleConversionPage, consoleDiagnosticsView, deletedRuleView, reasonsView, ruleView } from '../views';
import { inWorkspace } from '../workspaces';
import { consoleRoute, consoleWorkspacePath } from './console-route';
import { conversionFilterFields, queryText } from './fields';

const limitMessage = 'must be a whole number from 1 to 200';

/** The Conversions table's filter and page. */
export const conversionListQuery = z.strictObject({
  ...conversionFilterFields,
  limit: z.coerce.number({ error: limitMessage }).int(limitMessage).min(1, limitMessage).max(200, limitMessage).default(50),
  cursor: queryText(200).optional().meta({ description: 'The nextCursor of the previous page' }),
});

/** "Send again" by the Conversions table's filter. */
export const sendAgainQuery = z.strictObject(conversionFilterFields);

/** The Conversions table's filter, for its CSV file. */
export const conversionExportQuery = z.strictObject(conversionFilterFields);

export const conversionParams = z.object({ conversionId: z.guid({ error: 'must be a conversion ID (a UUID)' }) });

/** The ad report's query as the console asks for it (campaigns over the whole period unless told otherwise). */
export const adReportQuery = z.strictObject({
  level: z.enum(['campaign', 'adgroup', 'ad'], { error: 'must be campaign, adgroup or ad' }).default('campaign'),
  from: queryText(10).meta({ format: 'date' }),
  to: queryText(10).meta({ format: 'date' }),
  granularity: z.enum(['day', 'total'], { error: 'must be day or total' }).default('total'),
  campaignId: queryText(32).optional(),
  adgroupId: queryText(32).optional(),
});

const path = consoleWorkspacePath;

export const CONSOLE_DATA_ROUTES = [
  consoleRoute({
    method: 'GET',
    path: path('/conversions'),
    summary: 'The Conversions table: filtered, searched, newest event first',
    description: '`q` searches event IDs, user and anonymous IDs, TikTok events, and an email (hashed as at ingest).',
    params: inWorkspace(),
    query: conversionListQuery,
    answers: { 200: { description: 'A page of conversions', schema: consoleConversionPage }, ...errors(400) },
  }),
  consoleRoute({
    method: 'GET',
    path: path('/conversions.csv'),
    summary: 'The Conversions table of the same filter as a CSV file (its columns, times in the zone asked), streamed',
    params: inWorkspace(),
    query: conversionExportQuery,
    answers: { 200: { description: 'A header line, then one line per conversion, newest event first', contentType: 'text/csv' }, ...errors(400) },
  }),
  consoleRoute({ method: 'GET', path: path('/reasons'), summary: 'Every reason a conversion can carry, explained', params: inWorkspace(), answers: { 200: { description: 'The reasons', schema: reasonsView } } }),
  consoleRoute({ method: 'GET', path: path('/conversions/:conversionId'), summary: 'One conversion\'s whole story', params: inWorkspace(conversionParams), answers: { 200: { description: 'The conversion', schema: consoleConversionDetailView }, ...errors(400) } }),
  consoleRoute({
    method: 'POST',
    path: path('/conversions/:conversionId/retry'),
    summary: 'Send one failed (or skipped) conversion again',
    role: 'editor',
    params: inWorkspace(conversionParams),
    answers: { 200: { description: 'Queued again', schema: consoleRetryView }, ...errors(400, 409) },
  }),
  consoleRoute({ method: 'GET', path: path('/conversions/send-again'), summary: 'How many of the filtered conversions can be sent again', params: inWorkspace(), query: sendAgainQuery, answers: { 200: { description: 'The counts', schema: sendAgainCountView }, ...errors(400) } }),
  consoleRoute({ method: 'POST', path: path('/conversions/send-again'), summary: 'Send the filtered conversions again', role: 'editor', params: inWorkspace(), query: sendAgainQuery, answers: { 200: { description: 'What was queued again', schema: sentAgainView }, ...errors(400) } }),
  consoleRoute({ method: 'GET', path: path('/rules'), summary: 'The conversion rules, and events no rule maps yet', params: inWorkspace(), answers: { 200: { description: 'The rules and suggestions', schema: consoleRulesView } } }),
  consoleRoute({ method: 'PUT', path: path('/rules/:event'), summary: 'Create or replace the rule of an event', role: 'editor', params: inWorkspace(eventParam), body: ruleBody, answers: { 200: { description: 'The rule as saved', schema: ruleView }, ...errors(400) } }),
  consoleRoute({ method: 'DELETE', path: path('/rules/:event'), summary: 'Delete the rule of an event', role: 'editor', params: inWorkspace(eventParam), answers: { 200: { description: 'Deleted', schema: deletedRuleView } } }),
  consoleRoute({
    method: 'POST',
    path: path('/rules/:event/send-past'),
    summary: 'Send past events: count (dryRun) or convert the stored events of the last days that the rule maps now',
    role: 'editor',
    params: inWorkspace(eventParam),
    body: pastEventsBody,
    answers: { 200: { description: 'The count, with dryRun', schema: pastEventsPreview }, 202: { description: 'The run, started', schema: pastEventsRun }, ...errors(400), ...pastEventsRefusals },
  }),
  consoleRoute({ method: 'GET', path: path('/diagnostics'), summary: 'Per TikTok event: what became of the conversions whose event happened in the period', params: inWorkspace(), query: diagnosticsPeriodQuery, answers: { 200: { description: 'The diagnostics per TikTok event', schema: consoleDiagnosticsView }, ...errors(400) } }),
  consoleRoute({ method: 'POST', path: path('/test-conversion'), summary: 'Send one test conversion', role: 'editor', params: inWorkspace(), answers: { 200: { description: 'TikTok\'s verdict', schema: testConversionView }, 404: notConnected, 409: testConversionRefused } }),
  consoleRoute({ method: 'GET', path: path('/ads/report'), summary: 'Ad performance beside Signalbox\'s deliveries', params: inWorkspace(), query: adReportQuery, answers: { 200: { description: 'The report', schema: adReport }, ...errors(400), 404: notConnected, 409: noAdvertiser } }),
  consoleRoute({ method: 'GET', path: path('/ads/report.csv'), summary: 'The same report as CSV', params: inWorkspace(), query: adReportQuery, answers: { 200: { description: 'The CSV file', contentType: 'text/csv' }, ...errors(400), 404: notConnected, 409: noAdvertiser } }),
  consoleRoute({ method: 'POST', path: path('/ads/pull'), summary: 'Pull the ad statistics now', role: 'editor', params: inWorkspace(), answers: { 202: { description: 'Started in the background', schema: consoleStatsPullView }, 404: notConnected, 409: noAdvertiser, 503: scheduleUnavailable } }),
];
