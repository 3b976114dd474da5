/** Links to the console under `PUBLIC_URL` (an origin, as config/env.ts validates it), for what the services mail or show. */
export function consoleUrl(publicUrl: string, path: string): string {
  return `${new URL(publicUrl).origin}/console/${path}`;
}

/** A page of one workspace, e.g. `conversions?status=failed`: the console's routes are `/console/w/<workspace>/<page>`. */
export function workspacePageUrl(publicUrl: string, workspaceId: string, page: string): string {
  return consoleUrl(publicUrl, `w/${encodeURIComponent(workspaceId)}/${page}`);
}
