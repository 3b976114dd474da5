import { z } from 'zod';
import { errorAnswer, errors } from '../errors';
import { jsonBody, lineText } from '../fields';
import { liveSessionsView, passwordResetLinkView, passwordResetRequestedView, pendingInvitationView } from '../team-views';
import { sessionView, workspaceChangedView } from '../views';
import { createWorkspaceBody } from '../workspaces';
import { consoleRoute } from './console-route';
import { emailField, passwordField } from './fields';

export const signInBody = jsonBody({ email: emailField, password: passwordField });
export const acceptInvitationBody = jsonBody({ password: passwordField, name: lineText(200).optional() });
export const passwordChangeBody = jsonBody({ currentPassword: passwordField, newPassword: passwordField });
export const tokenParams = z.object({ token: z.string().min(1).max(200) });
export const sessionParams = z.object({ sessionId: z.string().min(1).max(100) });
export const passwordResetRequestBody = jsonBody({ email: emailField });
export const passwordResetBody = jsonBody({ newPassword: passwordField });

/** What the console sends, as the routes read it. */
export type SignInBody = z.input<typeof signInBody>;
export type AcceptInvitationBody = z.input<typeof acceptInvitationBody>;
export type PasswordChangeBody = z.input<typeof passwordChangeBody>;
export type PasswordResetRequestBody = z.input<typeof passwordResetRequestBody>;
export type PasswordResetBody = z.input<typeof passwordResetBody>;

const signedIn = (description: string) => ({ description: `${description}; sets the session cookie`, schema: sessionView });
const invitationGone = errorAnswer('The invitation was accepted already, withdrawn or has expired (`invitation_used`, `invitation_revoked`, `invitation_expired`)');

export const ACCOUNT_ROUTES = [
  consoleRoute({ method: 'POST', path: '/console/api/session', summary: 'Sign in', signedOut: true, body: signInBody, answers: { 200: signedIn('Signed in'), ...errors(400, 401, 429) } }),
  consoleRoute({ method: 'GET', path: '/console/api/session', summary: 'The signed-in person and their workspaces', answers: { 200: { description: 'The session', schema: sessionView } } }),
  consoleRoute({ method: 'DELETE', path: '/console/api/session', summary: 'Sign out', answers: { 200: { description: 'Signed out; the cookie is cleared', schema: z.strictObject({ signedOut: z.literal(true) }) } } }),
  consoleRoute({
    method: 'POST',
    path: '/console/api/workspaces',
    summary: 'Create another workspace, owned by the signed-in person (the change log records it)',
    body: createWorkspaceBody,
    answers: { 201: { description: 'The new workspace', schema: workspaceChangedView }, ...errors(400) },
  }),
  consoleRoute({
    method: 'PUT',
    path: '/console/api/session/password',
    summary: 'Change one\'s password (other sessions end)',
    body: passwordChangeBody,
    answers: { 200: { description: 'Changed', schema: z.strictObject({ changed: z.literal(true) }) }, ...errors(400, 429) },
  }),
  consoleRoute({ method: 'GET', path: '/console/api/sessions', summary: 'One\'s live sessions', answers: { 200: { description: 'The sessions', schema: liveSessionsView } } }),
  consoleRoute({
    method: 'DELETE',
    path: '/console/api/sessions/:sessionId',
    summary: 'End one of one\'s sessions',
    params: sessionParams,
    answers: { 200: { description: 'Ended', schema: z.strictObject({ revoked: z.literal(true) }) }, ...errors(404) },
  }),
  consoleRoute({ method: 'GET', path: '/console/api/invitations/:token', summary: 'What an invitation link offers', signedOut: true, params: tokenParams, answers: { 200: { description: 'The invitation', schema: pendingInvitationView }, ...errors(404), 410: invitationGone } }),
  consoleRoute({
    method: 'POST',
    path: '/console/api/invitations/:token/accept',
    summary: 'Accept an invitation: the password of the address\'s account, or a new one (see `password` of GET)',
    signedOut: true,
    params: tokenParams,
    body: acceptInvitationBody,
    answers: { 200: signedIn('Joined and signed in'), ...errors(400, 404, 429), 410: invitationGone },
  }),
  consoleRoute({
    method: 'POST',
    path: '/console/api/password-resets',
    summary: 'Mail a password reset link',
    description: 'Answers the same whether or not the address has an account.',
    signedOut: true,
    body: passwordResetRequestBody,
    answers: { 202: { description: 'A link is mailed if the address has an account', schema: passwordResetRequestedView }, ...errors(400, 429) },
  }),
  consoleRoute({ method: 'GET', path: '/console/api/password-resets/:token', summary: 'Whether a reset link is still valid', signedOut: true, params: tokenParams, answers: { 200: { description: 'Valid', schema: passwordResetLinkView }, ...errors(404) } }),
  consoleRoute({
    method: 'POST',
    path: '/console/api/password-resets/:token',
    summary: 'Choose a new password with a reset link',
    signedOut: true,
    params: tokenParams,
    body: passwordResetBody,
    answers: { 200: { description: 'Changed; every session of the account ended', schema: z.strictObject({ reset: z.literal(true) }) }, ...errors(400, 404) },
  }),
];
