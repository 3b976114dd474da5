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

/** A route of the console API: the session cookie, the CSRF token on writes, the 404 of a workspace the person is not in. */
export function consoleRoute<const R extends ConsoleRouteInput>({ role, signedOut, ...contract }: R) {
  const read = contract.method === 'GET';
  const scoped = contract.path.startsWith(consoleWorkspacePath(''));
  const refused: Record<number, Answer> = { 403: errorAnswer('The CSRF token is missing or wrong (csrf_token_invalid), the Origin is another site\'s, or the role may not do this') };
  const session: Record<number, Answer> = signedOut === true ? {} : { ...errors(401), ...(read ? {} : refused) };
  const description = [contract.description, role === undefined ? undefined : ROLE_NOTE[role]].filter((part) => part !== undefined).join(' ');
  return route({
    ...contract,
    ...(description === '' ? {} : { description }),
    tag: 'Console',
    security: signedOut === true ? PUBLIC : read ? CONSOLE_READ : CONSOLE_WRITE,
    answers: { ...session, ...(scoped ? errors(404) : {}), ...contract.answers },
  });
}
