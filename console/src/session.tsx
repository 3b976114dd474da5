import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { get, setCsrfToken } from './api';
import type { ConsoleWorkspaceView, SessionView } from '../../contract/views';

export function useMe() {
  return useQuery({
    queryKey: ['me'],
    queryFn: async () => {
      const me = await get<SessionView>('session');
      setCsrfToken(me.csrfToken);
      return me;
    },
    staleTime: 60_000,
  });
}

/** The workspace of the URL (`/w/:ws/…`) and the person's role in it. */
export function useWorkspace() {
  const { ws = '' } = useParams();
  const query = useQuery({ queryKey: ['workspace', ws], queryFn: () => get<ConsoleWorkspaceView>(`workspaces/${ws}`) });
  return { ws, base: `workspaces/${ws}`, ...query };
}

export function canEdit(role: string | undefined): boolean {
  return role === 'editor' || role === 'owner';
}

/** What a person whose role is too low reads beside a disabled action. */
export function roleTooLow(role: string | undefined, needs: 'editor' | 'owner', action: string): string {
  return `Your role (${role ?? 'viewer'}) cannot ${action}: it needs ${needs === 'owner' ? 'an owner' : 'an editor or owner'}.`;
}

/** roleTooLow's sentence when the role may not `action`, else null: the reason a read-only form or disabled control gives. */
export function whyNot(role: string | undefined, needs: 'editor' | 'owner', action: string): string | null {
  const allowed = needs === 'owner' ? role === 'owner' : canEdit(role);
  return allowed ? null : roleTooLow(role, needs, action);
}

/** Days on the pages are the advertiser's when TikTok told us its zone, else this browser's. */
export function useTimeZone(): string {
  const { data } = useWorkspace();
  return data?.tiktok?.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
}
