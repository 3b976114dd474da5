import { z } from 'zod';
import { adReport } from '../ad-report';
import { errors } from '../errors';
import { EVENT_SET_KINDS, EVENT_SET_NAMES, eventSetPath } from '../event-set-kinds';
import { callbackUnavailable, eventSetChoosing, eventSetListing, noAdvertiser, notConnected, oauthUnavailable, pixelSteps, scheduleUnavailable, testConversionRefused } from '../tiktok-answers';
import { jsonBody, requiredText } from '../fields';
import { advertiserBody, advertiserIdField, appBody, eventSetBody, pixelBody, pixelCodeField } from '../tiktok-fields';
import {
  adUrlParametersView,
  advertiserChoicesView,
  authorizationUrlView,
  disconnectedView,
  eventSetChoicesView,
  pixelChoicesView,
  statsPullView,
  testConversionView,
  tiktokConnectionStatusView,
  tiktokConnectionSummaryView,
  tiktokConnectionView,
} from '../tiktok-views';
import { inWorkspace } from '../workspaces';
import { adminRoute, inWorkspacePath } from './admin-route';

/** Manual entry of an Events API access token from TikTok Events Manager (the alternative to OAuth). */
export const manualConnectionBody = jsonBody({
  accessToken: requiredText(2048).regex(/^\S+$/, 'must not contain spaces'),
  advertiserId: advertiserIdField.nullish(),
  pixelCode: pixelCodeField,
});

/** When TikTok's redirect cannot reach this server, the owner copies `auth_code` and `state` from the address bar. */
export const oauthCallbackBody = jsonBody({ authCode: requiredText(1024), state: requiredText(1024) });

/** One query parameter given once (a repeated one arrives as an array). */
const queryText = (whenMissing?: string) =>
  z.string({ error: (issue) => (issue.input === undefined && whenMissing !== undefined ? whenMissing : 'must be given once') });

const limitMessage = 'must be an integer from 1 to 10000';
const offsetMessage = 'must be a non-negative integer';

/**
 * Shapes only; the report service checks dates, range and bounds and names the field. There is no time zone to pass:
 * days are the advertiser's on both sides, as TikTok reports them.
 */
export const reportQuery = z.strictObject({
  level: z.enum(['campaign', 'adgroup', 'ad'], { error: (issue) => (issue.input === undefined ? 'is required: campaign, adgroup or ad' : 'must be campaign, adgroup or ad') }),
  from: queryText('is required: the first day, as YYYY-MM-DD').meta({ format: 'date' }),
  to: queryText('is required: the last day (inclusive), as YYYY-MM-DD').meta({ format: 'date' }),
  granularity: z.enum(['day', 'total'], { error: 'must be day or total' }).optional(),
  campaignId: queryText().optional(),
  adgroupId: queryText().optional(),
  limit: z.coerce.number({ error: limitMessage }).optional(),
  offset: z.coerce.number({ error: offsetMessage }).optional(),
});

const connection = (description: string) => ({ description, schema: tiktokConnectionView });

export const TIKTOK_ROUTES = [
  adminRoute({
    method: 'PUT',
    path: inWorkspacePath('/tiktok'),
    summary: 'Connect TikTok with an access token from Events Manager',
    tag: 'TikTok',
    params: inWorkspace(),
    body: manualConnectionBody,
    answers: { 200: connection('The connection (the token is never returned)'), ...errors(400, 502), 503: scheduleUnavailable },
  }),
  adminRoute({ method: 'GET', path: inWorkspacePath('/tiktok'), summary: 'The TikTok connection\'s status', tag: 'TikTok', params: inWorkspace(), answers: { 200: { description: 'The connection and its statistics schedule', schema: tiktokConnectionStatusView }, 404: notConnected, 503: scheduleUnavailable } }),
  adminRoute({ method: 'DELETE', path: inWorkspacePath('/tiktok'), summary: 'Disconnect TikTok', tag: 'TikTok', params: inWorkspace(), answers: { 200: { description: 'Disconnected', schema: disconnectedView }, 404: notConnected, 503: scheduleUnavailable } }),
  adminRoute({ method: 'PUT', path: inWorkspacePath('/tiktok/app'), summary: 'Set the TikTok App ID for mobile-app events', tag: 'TikTok', params: inWorkspace(), body: appBody, answers: { 200: { description: 'The connection as stored', schema: tiktokConnectionSummaryView }, ...errors(400), 404: notConnected } }),
  adminRoute({
    method: 'POST',
    path: inWorkspacePath('/tiktok/oauth/authorize'),
    summary: 'The TikTok authorization URL for the owner to open',
    tag: 'TikTok',
    params: inWorkspace(),
    answers: { 200: { description: 'The URL and its signed state', schema: authorizationUrlView }, ...errors(409), 503: oauthUnavailable },
  }),
  adminRoute({
    method: 'POST',
    path: inWorkspacePath('/tiktok/oauth/callback'),
    summary: 'Complete the authorization by hand (auth_code and state from the address bar)',
    tag: 'TikTok',
    params: inWorkspace(),
    body: oauthCallbackBody,
    answers: { 200: connection('The connection'), ...errors(400, 502), 503: callbackUnavailable },
  }),
  adminRoute({ method: 'GET', path: inWorkspacePath('/tiktok/advertisers'), summary: 'The advertisers the connection may use', tag: 'TikTok', params: inWorkspace(), answers: { 200: { description: 'The advertisers and the selected one', schema: advertiserChoicesView }, ...errors(502), 404: notConnected } }),
  adminRoute({ method: 'PUT', path: inWorkspacePath('/tiktok/advertiser'), summary: 'Select the advertiser', tag: 'TikTok', params: inWorkspace(), body: advertiserBody, answers: { 200: connection('The connection'), ...errors(400, 502), 404: notConnected, 503: scheduleUnavailable } }),
  adminRoute({ method: 'GET', path: inWorkspacePath('/tiktok/pixels'), summary: 'The selected advertiser\'s pixels', tag: 'TikTok', params: inWorkspace(), answers: { 200: { description: 'The pixels and the selected one', schema: pixelChoicesView }, ...pixelSteps } }),
  adminRoute({ method: 'PUT', path: inWorkspacePath('/tiktok/pixel'), summary: 'Select the pixel', tag: 'TikTok', params: inWorkspace(), body: pixelBody, answers: { 200: connection('The connection'), ...errors(400), ...pixelSteps } }),
  ...EVENT_SET_KINDS.flatMap((kind) => {
    const what = EVENT_SET_NAMES[kind];
    const path = inWorkspacePath(`/tiktok${eventSetPath(kind)}`);
    return [
      adminRoute({ method: 'GET', path: `${path}s`, summary: `The selected advertiser's ${what}s`, tag: 'TikTok', params: inWorkspace(), answers: { 200: { description: `The ${what}s and the selected one`, schema: eventSetChoicesView }, ...eventSetListing } }),
      adminRoute({
        method: 'PUT',
        path,
        summary: `Select the ${what}, or none`,
        description: `One of the advertiser's ${what}s; taken by ID alone (without its name) when TikTok cannot list them: no advertiser, or no permission to read them.`,
        tag: 'TikTok',
        params: inWorkspace(),
        body: eventSetBody,
        answers: { 200: connection('The connection'), ...errors(400), ...eventSetChoosing },
      }),
    ];
  }),
  adminRoute({
    method: 'POST',
    path: inWorkspacePath('/tiktok/stats/pull'),
    summary: 'Pull the ad statistics now',
    tag: 'TikTok',
    params: inWorkspace(),
    answers: { 202: { description: 'Started in the background', schema: statsPullView }, 404: notConnected, 409: noAdvertiser, 503: scheduleUnavailable },
  }),
  adminRoute({ method: 'GET', path: inWorkspacePath('/tiktok/reports'), summary: 'Ad report: TikTok\'s figures beside Signalbox\'s deliveries', tag: 'TikTok', params: inWorkspace(), query: reportQuery, answers: { 200: { description: 'The report', schema: adReport }, ...errors(400), 404: notConnected, 409: noAdvertiser } }),
  adminRoute({
    method: 'POST',
    path: inWorkspacePath('/tiktok/test-conversion'),
    summary: 'Send one test conversion with the workspace\'s test event code',
    description: 'Answers TikTok\'s verdict as it came, with 200 whichever it was.',
    tag: 'TikTok',
    params: inWorkspace(),
    answers: { 200: { description: 'TikTok\'s verdict', schema: testConversionView }, 404: notConnected, 409: testConversionRefused },
  }),
  adminRoute({ method: 'GET', path: inWorkspacePath('/tiktok/ad-url-parameters'), summary: 'What to add to every ad\'s landing page URL', tag: 'TikTok', params: inWorkspace(), answers: { 200: { description: 'The URL parameters, with an example and instructions', schema: adUrlParametersView } } }),
];
