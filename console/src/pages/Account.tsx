import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, get } from '../api';
import { ConfirmButton, Loading } from '../components/bits';
import { dateTime } from '../format';
import { useMe } from '../session';

interface SessionView {
  id: string;
  current: boolean;
  userAgent: string | null;
  address: string | null;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
}

export function AccountPage() {
  const me = useMe();
  const queries = useQueryClient();
  const sessions = useQuery({ queryKey: ['sessions'], queryFn: () => get<{ sessions: SessionView[] }>('sessions') });
  const revoke = useMutation({ mutationFn: (id: string) => api('DELETE', `sessions/${id}`), onSuccess: () => queries.invalidateQueries({ queryKey: ['sessions'] }) });
  if (me.isPending || sessions.isPending) return <Loading what="your account" />;
  return (
    <main className="page narrow">
      <p>
        <Link to="/">← Back to the console</Link>
      </p>
      <h1>Your account</h1>
      <p>
        Signed in as <strong>{me.data?.user.email}</strong>.
      </p>
      <h2>Where you are signed in</h2>
      <ul className="cards">
        {sessions.data?.sessions.map((s) => (
          <li key={s.id} className="card">
            <div>
              <strong>{s.current ? 'This browser' : (s.userAgent ?? 'Unknown browser')}</strong>
              <div className="muted">
                from {s.address ?? 'an unknown address'} · signed in {dateTime(s.createdAt)} · last seen {dateTime(s.lastSeenAt)}
              </div>
            </div>
            {!s.current && (
              <ConfirmButton label="Sign out there" title="Sign this session out?" confirm="Sign out" onConfirm={() => revoke.mutate(s.id)}>
                The browser using it will have to sign in again.
              </ConfirmButton>
            )}
          </li>
        ))}
      </ul>
    </main>
  );
}
