import type {
  AcceptInvitationBody,
  DemoLoginQuery,
  MfaChallenge,
  RegisterBody,
  SignInResponse,
  UserProfile,
} from '@coverdesk/contract';

import { useSyncExternalStore } from 'react';
import { api, tokens } from './api-client.js';
import { ApiError } from './http.js';

type DemoRole = DemoLoginQuery['role'];

/** not-initialised -> initialised (tokens read) -> stable (the user is known, or known to be absent). */
export type AuthStatus = 'not-initialised' | 'initialised' | 'stable';

export interface SessionState {
  status: AuthStatus;
  user: UserProfile | null;
  /**
   * When the user signed in during this visit (null when the session was restored from a previous
   * one): the welcome popups key on it, once per sign-in.
   */
  freshLoginAt: number | null;
}

const PROFILE_KEY = 'coverdesk.profile';
const PROFILE_CACHE_MS = 5 * 60 * 1000;
const STARTUP_PROFILE_TIMEOUT_MS = 3000;

type TokenResponse = { access: string; refresh: string };

/** Someone else's cached data must not outlive their session. */
export type ClearUserCaches = () => void | Promise<void>;

export class Session {
  private state: SessionState = { status: 'not-initialised', user: null, freshLoginAt: null };
  private readonly listeners = new Set<() => void>();
  private loginInProgress = false;
  private logoutInProgress: Promise<void> | null = null;

  constructor(
    private readonly clearUserCaches: ClearUserCaches,
    private readonly storage: Storage = localStorage,
  ) {}

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = () => this.state;

  private update(changes: Partial<SessionState>) {
    this.state = { ...this.state, ...changes };
    for (const listener of this.listeners) listener();
  }

  /** Reads the stored session at start-up; the profile fetch gives up after 3 seconds. */
  async initialise(): Promise<void> {
    if (this.state.status !== 'not-initialised') return;
    this.update({ status: 'initialised' });
    if (!tokens.access()) {
      this.update({ status: 'stable', user: null });
      return;
    }
    const cached = this.cachedProfile();
    if (cached) {
      this.update({ status: 'stable', user: cached });
      void this.refreshProfile().catch(() => {});
      return;
    }
    try {
      const user = await api.get<UserProfile>('/user/profile/', {
        signal: AbortSignal.timeout(STARTUP_PROFILE_TIMEOUT_MS),
      });
      this.storeProfile(user);
      this.update({ status: 'stable', user });
    } catch (error) {
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
        tokens.clear();
        this.storage.removeItem(PROFILE_KEY);
      }
      this.update({ status: 'stable', user: null });
    }
  }

  /**
   * The password step: signed in, or, when two-step sign-in is on, the token `loginWithCode` takes
   * with the authenticator's code.
   */
  async login(email: string, password: string): Promise<UserProfile | MfaChallenge> {
    let challenge: MfaChallenge | undefined;
    const user = await this.exclusiveLogin(async () => {
      const answer = await api.post<SignInResponse>('/token/', { email, password });
      if ('mfa_required' in answer) {
        challenge = answer;
        return null;
      }
      tokens.set(answer);
      return api.get<UserProfile>('/user/profile/');
    });
    return challenge ?? (user as UserProfile);
  }

  /** The second step: the authenticator's code, or one recovery code. */
  async loginWithCode(
    mfaToken: string,
    proof: { code: string } | { recovery_code: string },
  ): Promise<UserProfile> {
    return this.signedIn(async () => {
      tokens.set(await api.post<TokenResponse>('/token/mfa/', { mfa_token: mfaToken, ...proof }));
      return api.get<UserProfile>('/user/profile/');
    });
  }

  /** Signs in to the demo agency as its owner, or as its agent or viewer to see what they may do. */
  async demoLogin(role: DemoRole = 'owner'): Promise<UserProfile> {
    return this.signedIn(async () => {
      const demo = await api.post<{ access_token: string; refresh_token: string; user: UserProfile }>(
        `/accounts/login/demo/${role === 'owner' ? '' : `?role=${role}`}`,
      );
      tokens.set({ access: demo.access_token, refresh: demo.refresh_token });
      return demo.user;
    });
  }

  async register(body: RegisterBody): Promise<UserProfile> {
    return this.signedIn(async () => {
      const created = await api.post<TokenResponse & { user: UserProfile }>('/accounts/register/', body);
      tokens.set(created);
      return created.user;
    });
  }

  /** Joining an agency through an invitation: the new member is signed in, as after registering. */
  async acceptInvitation(body: AcceptInvitationBody): Promise<UserProfile> {
    return this.signedIn(async () => {
      const joined = await api.post<TokenResponse & { user: UserProfile }>('/team/invitations/accept/', body);
      tokens.set(joined);
      return joined.user;
    });
  }

  /** Guarded against concurrent calls: a second call waits for the first. */
  logout(): Promise<void> {
    this.logoutInProgress ??= (async () => {
      const refresh = tokens.refresh();
      tokens.clear();
      this.storage.removeItem(PROFILE_KEY);
      this.update({ user: null, freshLoginAt: null, status: 'stable' });
      await this.clearUserCaches();
      if (refresh) await api.post('/token/revoke/', { refresh }).catch(() => {});
    })().finally(() => {
      this.logoutInProgress = null;
    });
    return this.logoutInProgress;
  }

  /** After the profile changed on the server (settings saved). */
  setUser(user: UserProfile) {
    this.storeProfile(user);
    this.update({ user });
  }

  async refreshProfile(): Promise<void> {
    const user = await api.get<UserProfile>('/user/profile/');
    this.setUser(user);
  }

  /** A sign-in that always ends signed in (or fails). */
  private async signedIn(signIn: () => Promise<UserProfile>): Promise<UserProfile> {
    return (await this.exclusiveLogin(signIn)) as UserProfile;
  }

  /** One sign-in at a time; `signIn` answers null when it stopped before signing in (a second step). */
  private async exclusiveLogin(signIn: () => Promise<UserProfile | null>): Promise<UserProfile | null> {
    if (this.loginInProgress) throw new Error('Login already in progress');
    this.loginInProgress = true;
    try {
      const user = await signIn();
      if (!user) return null;
      await this.clearUserCaches();
      this.storeProfile(user);
      this.update({ status: 'stable', user, freshLoginAt: Date.now() });
      return user;
    } catch (error) {
      tokens.clear();
      throw error;
    } finally {
      this.loginInProgress = false;
    }
  }

  private storeProfile(user: UserProfile) {
    this.storage.setItem(PROFILE_KEY, JSON.stringify({ user, savedAt: Date.now() }));
  }

  private cachedProfile(): UserProfile | null {
    try {
      const saved = JSON.parse(this.storage.getItem(PROFILE_KEY) ?? 'null') as {
        user: UserProfile;
        savedAt: number;
      } | null;
      return saved && Date.now() - saved.savedAt < PROFILE_CACHE_MS ? saved.user : null;
    } catch {
      return null;
    }
  }
}

export function useSessionState(session: Session): SessionState {
  return useSyncExternalStore(session.subscribe, session.getSnapshot);
}
