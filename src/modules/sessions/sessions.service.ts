// Signing users in to the browser app: sessions from an API token or a one-time sign-in link, sliding expiry, sign-out, and minting links (docs/security.md).
import type { DatabaseHandle } from '../../db/database.js';
import { inTransaction } from '../../db/executor.js';
import { errors } from '../../http/errors.js';
import type { SessionLookup } from '../../http/plugins/auth.js';
import { SESSION_MAX_AGE_SECONDS } from '../../http/session-cookie.js';
import { hashToken, newToken } from '../../shared/tokens.js';
import { currentActing } from '../../events/actor-context.js';
import { writeWithEvents } from '../../events/outbox.js';
import { userEvent } from '../../events/subjects.js';
import { findUser, findUserByTokenHash } from '../users/users.store.js';
import {
  deleteSession,
  extendSession,
  findLiveSession,
  insertSession,
  insertSignInLink,
  takeSignInLink,
} from './sessions.store.js';

const SESSION_TTL_MS = SESSION_MAX_AGE_SECONDS * 1000;
/** A session's expiry is written at most this often, so reads stay reads. */
const RENEW_EVERY_MS = 3600_000;
export const SIGN_IN_LINK_TTL_MS = 15 * 60_000;

/** A new session: the cookie value (given to the browser only) and what the API answers. */
export interface StartedSession {
  cookie: string;
  user_id: number;
  expires_at: string;
}

export interface SignInLink {
  url: string;
  code: string;
  expires_at: string;
}

export type SignInCredential = { token: string } | { code: string };

export class SessionsService {
  constructor(
    private readonly database: DatabaseHandle,
    private readonly publicBaseUrl: string,
  ) {}

  /**
   * Starts a session for the holder of an API token or of an unused sign-in code. A code is taken in the same
   * transaction that starts the session, so of two sign-ins with one code exactly one succeeds.
   */
  signIn(credential: SignInCredential): Promise<StartedSession> {
    return inTransaction(this.database.db, async (trx) => {
      const now = new Date();
      let userId: number;
      if ('token' in credential) {
        const user = await findUserByTokenHash(trx, hashToken(credential.token));
        if (!user) throw errors.invalidToken();
        userId = user.user_id;
      } else {
        const taken = await takeSignInLink(trx, hashToken(credential.code), now.toISOString());
        if (taken === undefined) throw errors.invalidSignInCode();
        userId = taken;
      }
      const user = await findUser(trx, userId);
      if (!user) throw errors.invalidToken();
      if (user.is_active !== 1) throw errors.accountDisabled();
      const cookie = newToken();
      const expiresAt = new Date(now.getTime() + SESSION_TTL_MS).toISOString();
      await insertSession(trx, {
        id_hash: hashToken(cookie),
        user_id: userId,
        created_at: now.toISOString(),
        expires_at: expiresAt,
      });
      return { cookie, user_id: userId, expires_at: expiresAt };
    });
  }

  /** The live session of a cookie; slides its expiry to 7 days from now when it was last written over an hour ago. */
  async find(cookie: string): Promise<(SessionLookup & { expires_at: string }) | undefined> {
    const now = Date.now();
    const idHash = hashToken(cookie);
    const session = await findLiveSession(this.database.db, idHash, new Date(now).toISOString());
    if (!session) return undefined;
    const renewBefore = new Date(now - RENEW_EVERY_MS).toISOString();
    let expiresAt = session.expires_at;
    let renewed = false;
    if (session.last_seen < renewBefore) {
      const slid = new Date(now + SESSION_TTL_MS).toISOString();
      renewed = await extendSession(this.database.db, idHash, renewBefore, new Date(now).toISOString(), slid);
      if (renewed) expiresAt = slid;
    }
    return { user_id: session.user_id, is_active: session.is_active, renewed, expires_at: expiresAt };
  }

  /** Ends the session of this cookie; nothing happens when there is none. */
  async signOut(cookie: string): Promise<void> {
    await deleteSession(this.database.db, hashToken(cookie));
  }

  /**
   * A one-time sign-in link for an existing, active user, valid 15 minutes. The caller has checked the minter may
   * ask (admin, or a provider the user approved); the audit log records who minted it, never the code.
   */
  async mintLink(userId: number, providerHash: string | null = null): Promise<SignInLink> {
    const code = newToken();
    const now = Date.now();
    const expiresAt = new Date(now + SIGN_IN_LINK_TTL_MS).toISOString();
    const actor = currentActing().actor();
    await writeWithEvents(this.database.db, async (trx, emit) => {
      const user = await findUser(trx, userId);
      if (!user) throw errors.userNotFound();
      if (user.is_active !== 1) throw errors.userAccountDisabled(userId);
      await insertSignInLink(trx, {
        code_hash: hashToken(code),
        user_id: userId,
        created_at: new Date(now).toISOString(),
        expires_at: expiresAt,
        minted_by: `${actor.kind}:${actor.id}`,
      });
      emit({
        ...userEvent('user.sign_in_link_created', userId, { expires_at: expiresAt }),
        providerHash,
      });
    });
    return { url: `${this.publicBaseUrl}/app/sign-in#code=${code}`, code, expires_at: expiresAt };
  }
}
