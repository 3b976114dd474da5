import { useQuery } from '@tanstack/react-query';
import { get } from './api';
import { useWorkspace } from './session';
import type { ReasonsView } from '../../contract/views';

/** Why a conversion was not sent as usual, in words: every reason (the filter's choices) and each one's label. */
export function useReasons() {
  const { base } = useWorkspace();
  const reasons = useQuery({ queryKey: ['reasons'], queryFn: () => get<ReasonsView>(`${base}/reasons`), staleTime: Infinity });
  const byCode = new Map((reasons.data?.reasons ?? []).map((r) => [r.reason, r]));
  return { all: reasons.data?.reasons ?? [], label: (reason: string | null) => (reason === null ? '' : (byCode.get(reason)?.label ?? reason)) };
}
