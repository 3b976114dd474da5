import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { PasswordResetService } from '../../services/accounts/password-reset';
import { jsonBody } from '../../../contract/fields';
import { parseOrReject } from '../../http/validation';
import { emailField, passwordField } from '../fields';

const requestBody = jsonBody({ email: emailField });
const resetBody = jsonBody({ newPassword: passwordField });
const tokenParams = z.object({ token: z.string().min(1).max(200) });

/** "Forgot password?" without a session: ask for a link, look at it, set the new password through it. */
export const passwordResetRoutes: FastifyPluginAsync<{ passwordResets: PasswordResetService }> = async (app, { passwordResets }) => {
  app.post('/password-resets', async (request, reply) => {
    const { email } = parseOrReject(requestBody, request.body, 'body');
    await passwordResets.request(email, request.ip);
    return reply.code(202).send({ message: 'If an account uses this address, a link to set a new password is on its way. It works once, for 30 minutes.' });
  });

  app.get('/password-resets/:token', async (request) => {
    const { token } = parseOrReject(tokenParams, request.params, 'path');
    return passwordResets.check(token);
  });

  app.post('/password-resets/:token', async (request) => {
    const { token } = parseOrReject(tokenParams, request.params, 'path');
    const { newPassword } = parseOrReject(resetBody, request.body, 'body');
    await passwordResets.reset(token, newPassword);
    return { reset: true };
  });
};
