import { get } from '../http/client';
import { session } from './session';

/**
 * Logout (spec point 4): tell the server (the token is revoked), then clear token, user,
 * company, open tabs and the generated-routes flag (the clear hooks) and reset the routes.
 * The router then shows /login. A failed call still logs out locally.
 */
export async function logout(): Promise<void> {
  try {
    if (session.get().token) await get<null>('/user/access/logout', undefined, { silent: true });
  } catch {
    // the token may already be gone server-side; the local session is cleared either way
  } finally {
    session.clear({ loggedOut: true });
  }
}
