/**
 * Tells the console's other tabs of this browser that the person signed in or out. The tabs share
 * the session cookie, so signing out in one ends the session for all. Messages carry no secret:
 * what happened and, for a sign-in, the user id. BroadcastChannel where the browser has it, else
 * the `storage` event of localStorage (which then holds only that same non-secret message).
 */
export interface SessionChannel {
  announceSignIn(userId: number): void;
  announceSignOut(): void;
  close(): void;
}

type Message = { kind: 'signed-in'; userId: number } | { kind: 'signed-out' };

const NAME = 'atrium.session';

function parse(value: unknown): Message | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const message = value as { kind?: unknown; userId?: unknown };
  if (message.kind === 'signed-out') return { kind: 'signed-out' };
  if (message.kind === 'signed-in' && typeof message.userId === 'number') return { kind: 'signed-in', userId: message.userId };
  return undefined;
}

export function openSessionChannel(listener: { signedIn(userId: number): void; signedOut(): void }): SessionChannel {
  const deliver = (message: Message | undefined) => {
    if (message?.kind === 'signed-out') listener.signedOut();
    if (message?.kind === 'signed-in') listener.signedIn(message.userId);
  };
  if (typeof BroadcastChannel === 'function') {
    const channel = new BroadcastChannel(NAME);
    channel.onmessage = (event: MessageEvent) => deliver(parse(event.data));
    return {
      announceSignIn: (userId) => channel.postMessage({ kind: 'signed-in', userId }),
      announceSignOut: () => channel.postMessage({ kind: 'signed-out' }),
      close: () => channel.close(),
    };
  }
  const onStorage = (event: StorageEvent) => {
    if (event.key !== NAME || event.newValue === null) return;
    try {
      deliver(parse(JSON.parse(event.newValue)));
    } catch {
      // Not ours.
    }
  };
  window.addEventListener('storage', onStorage);
  // A unique stamp makes every message a change, so the other tabs get a storage event each time.
  const post = (message: Message) => localStorage.setItem(NAME, JSON.stringify({ ...message, at: `${Date.now()}-${Math.random()}` }));
  return {
    announceSignIn: (userId) => post({ kind: 'signed-in', userId }),
    announceSignOut: () => post({ kind: 'signed-out' }),
    close: () => window.removeEventListener('storage', onStorage),
  };
}
