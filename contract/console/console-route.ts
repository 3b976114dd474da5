import { errorAnswer, errors } from '../errors';
import { route, type Answer, type RouteContract } from '../route';
import { CONSOLE_READ, CONSOLE_WRITE, PUBLIC } from '../security';

/** Where a workspace's console API routes live. */
export const consoleWorkspacePath = (rest: string) => `/console/api/workspaces/:workspaceId${rest}`;

type ConsoleRouteInput = Omit<RouteContract, 'security' | 'tag'> & {
  /** The least role that may do it (viewers read; editors change settings; owners also people and keys). */
  role?: 'editor' | 'owner';
  /** Open without a session: signing in, invitations, password resets. */
  signedOut?: true;
};

const ROLE_NOTE = { editor: 'Needs an editor or owner.', owner: 'Needs an owner.' };

const FOREIGN_ORIGIN = 'the Origin is another site\'s (a write from a page elsewhere)';

/** Why a write is refused: the Origin of every write is checked (api/console/auth.ts), the CSRF token and role of a signed-in one. */
function refusal(signedOut: boolean): Record<number, Answer> {
  return { 403: errorAnswer(signedOut ? `Refused: ${FOREIGN_ORIGIN}` : `Refused: the CSRF token is missing or wrong (csrf_token_invalid), ${FOREIGN_ORIGIN}, or the role may not do this`) };
}

/** A route of the console API: the session cookie (its 401 comes with it), the checks of writes, the 404 of a workspace the person is not in. */
export function consoleRoute<const R extends ConsoleRouteInput>({ role, signedOut, ...contract }: R) {
  const read = contract.method === 'GET';
  const scoped = contract.path.startsWith(consoleWorkspacePath(''));
  const description = [contract.description, role === undefined ? undefined : ROLE_NOTE[role]].filter((part) => part !== undefined).join(' ');
  return route({
    ...contract,
    ...(description === '' ? {} : { description }),
    tag: 'Console',
    security: signedOut === true ? PUBLIC : read ? CONSOLE_READ : CONSOLE_WRITE,
    answers: { ...(read ? {} : refusal(signedOut === true)), ...(scoped ? errors(404) : {}), ...contract.answers },
  });
}
