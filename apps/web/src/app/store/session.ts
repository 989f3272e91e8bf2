/**
 * The session (spec point 3/4): token, current user and current company, kept in client
 * storage so a reload keeps the person logged in. Readable outside React (the http client)
 * through `session.get()`, and inside React through `useSession()`.
 */
import { useSyncExternalStore } from 'react';
import { storage } from './storage';
import type { CurrentCompany, CurrentUser } from './types';

export const TOKEN_KEY = 'token';
export const USER_KEY = 'user';
export const COMPANY_KEY = 'company';

export interface SessionState {
  token: string | null;
  user: CurrentUser | null;
  company: CurrentCompany | null;
}

export interface SessionUpdate {
  token?: string | null;
  /** seconds the token stays valid (getToken's `expiresIn`); the stored token then expires too */
  expiresIn?: number;
  user?: CurrentUser | null;
  company?: CurrentCompany | null;
}

type Listener = () => void;

function read(): SessionState {
  return {
    token: storage.get<string>(TOKEN_KEY),
    user: storage.get<CurrentUser>(USER_KEY),
    company: storage.get<CurrentCompany>(COMPANY_KEY),
  };
}

let state: SessionState = read();
const listeners = new Set<Listener>();
const clearHooks = new Set<() => void>();
let loggedOut = false;
/**
 * Tokens this page has let go of (logged out, or replaced by another login): a refusal that
 * answers one of them is about a session that has already ended here, not the current one.
 */
const retired = new Set<string>();

function retire(token: string | null): void {
  if (!token) return;
  retired.add(token);
  // a page logs in and out a handful of times: keep the last few only
  if (retired.size > 8) retired.delete(retired.values().next().value as string);
}

function emit(): void {
  for (const listener of listeners) listener();
}

export const session = {
  get(): SessionState {
    // a stored token may have expired since the last read
    if (state.token && storage.get<string>(TOKEN_KEY) == null) state = { ...state, token: null };
    return state;
  },

  set(update: SessionUpdate): void {
    const next = { ...state };
    if (update.token !== undefined) {
      if (update.token !== state.token) retire(state.token);
      next.token = update.token;
      if (update.token) loggedOut = false;
      if (update.token)
        storage.set(TOKEN_KEY, update.token, update.expiresIn ? update.expiresIn * 1000 : undefined);
      else storage.remove(TOKEN_KEY);
    }
    if (update.user !== undefined) {
      next.user = update.user;
      if (update.user) storage.set(USER_KEY, update.user);
      else storage.remove(USER_KEY);
    }
    if (update.company !== undefined) {
      next.company = update.company;
      if (update.company) storage.set(COMPANY_KEY, update.company);
      else storage.remove(COMPANY_KEY);
    }
    state = next;
    emit();
  },

  /**
   * Drop token, user and company and run the clear hooks. `loggedOut`: the person chose to
   * leave, so the login page gets no redirect back to where they were.
   */
  clear(options: { loggedOut?: boolean } = {}): void {
    loggedOut = Boolean(options.loggedOut);
    retire(state.token);
    storage.remove(TOKEN_KEY);
    storage.remove(USER_KEY);
    storage.remove(COMPANY_KEY);
    state = { token: null, user: null, company: null };
    for (const hook of clearHooks) hook();
    emit();
  },

  /** The session ended by logging out (until the next login): /login then carries no redirect. */
  endedByLogout(): boolean {
    return loggedOut;
  },

  /** Whether this page let `token` go (logout, another login): its refusals are old news. */
  isRetired(token: string): boolean {
    return retired.has(token);
  },

  /** Other stores (open tabs, generated routes) register what to reset on logout. */
  onClear(hook: () => void): () => void {
    clearHooks.add(hook);
    return () => clearHooks.delete(hook);
  },

  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

// another tab logged out or in: follow it
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === TOKEN_KEY || event.key === USER_KEY || event.key === COMPANY_KEY) {
      state = read();
      emit();
    }
  });
}

export interface UseSession extends SessionState {
  setSession: (update: SessionUpdate) => void;
  clear: (options?: { loggedOut?: boolean }) => void;
}

export function useSession(): UseSession {
  const current = useSyncExternalStore(session.subscribe, session.get, session.get);
  return { ...current, setSession: session.set, clear: session.clear };
}
