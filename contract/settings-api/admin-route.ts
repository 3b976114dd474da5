import { errors } from '../errors';
import { route, type RouteContract } from '../route';
import { ADMIN_TOKEN } from '../security';
import type { TagName } from '../tags';

/** Where a workspace's settings API routes live. */
export const inWorkspacePath = (rest: string) => `/admin/workspaces/:workspaceId${rest}`;

type AdminRouteInput = Omit<RouteContract, 'security' | 'tag'> & { tag?: TagName };

/** A route of the settings API: the admin token (its 401 comes with it), and the 404 of an unknown workspace under `/admin/workspaces/:workspaceId`. */
export function adminRoute<const R extends AdminRouteInput>(contract: R) {
  const scoped = contract.path.startsWith(inWorkspacePath(''));
  return route({ ...contract, tag: contract.tag ?? 'Settings API', security: ADMIN_TOKEN, answers: { ...(scoped ? errors(404) : {}), ...contract.answers } });
}
