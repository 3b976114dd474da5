import type { FastifyPluginAsync } from 'fastify';
import type { PasswordResetService } from '../../services/accounts/password-reset';
import { parseOrReject } from '../../http/validation';
import { passwordResetBody, passwordResetRequestBody, tokenParams } from '../../../contract/console/account-routes';


/** "Forgot password?" without a session: ask for a link, look at it, set the new password through it. */
export const passwordResetRoutes: FastifyPluginAsync<{ passwordResets: PasswordResetService }> = async (app, { passwordResets }) => {
  app.post('/password-resets', async (request, reply) => {
    const { email } = parseOrReject(passwordResetRequestBody, request.body, 'body');
    await passwordResets.request(email, request.ip);
    return reply.code(202).send({ message: 'If an account uses this address, a link to set a new password is on its way. It works once, for 30 minutes.' });
  });

  app.get('/password-resets/:token', async (request) => {
    const { token } = parseOrReject(tokenParams, request.params, 'path');
    return passwordResets.check(token);
  });

  app.post('/password-resets/:token', async (request) => {
    const { token } = parseOrReject(tokenParams, request.params, 'path');
    const { newPassword } = parseOrReject(passwordResetBody, request.body, 'body');
    await passwordResets.reset(token, newPassword);
    return { reset: true };
  });
};
