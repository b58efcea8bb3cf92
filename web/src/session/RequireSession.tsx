import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { RequiredPasswordChange } from './RequiredPasswordChange';
import { useSession } from './session';

/** Sends a person who is not signed in to sign in, remembering where they were going. */
export function RequireSession({ children }: { children: ReactNode }) {
  const { profile } = useSession();
  const location = useLocation();
  if (profile === undefined) {
    const next = location.pathname + location.search;
    return <Navigate to={`/sign-in?next=${encodeURIComponent(next)}`} replace />;
  }
  // An administrator asked for a new password: nothing else is offered (the server refuses it anyway).
  if (profile.passwordChangeRequired === true) return <RequiredPasswordChange />;
  return children;
}

/** Only console addresses are followed after sign-in, never another site's. */
export function safeNext(next: string | null): string {
  return next !== null && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/files';
}
