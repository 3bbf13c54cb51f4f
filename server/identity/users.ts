import type { Middleware } from 'koa';
import { USERNAME } from '../../api/messaging.ts';
import { unauthenticated } from '../http/api-error.ts';
import type { AppState } from '../http/app-state.ts';
import type { Store } from '../store/store.ts';
import type { Clock } from '../clock.ts';
import { bearer, hashSecret, newId, newSecret } from './secrets.ts';

export interface User {
  id: string;
  username: string;
  created_at: number;
}

/** Stored under the token's hash, so the token itself is never on disk. */
interface AccessToken {
  id: string;
  user_id: string;
  created_at: number;
}

/** Messaging users and their access tokens. */
export class Users {
  readonly #users;
  readonly #accessTokens;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {
    this.#users = store.collection<User>('users', { username: (u) => u.username });
    this.#accessTokens = store.collection<AccessToken>('access_tokens', { user: (t) => t.user_id });
  }

  /** Creates the user if needed and issues a new access token for it, durable once this resolves. */
  async issueToken(username: string): Promise<{ user: User; accessToken: string }> {
    if (!USERNAME.test(username)) throw new Error('A username is 1 to 64 letters (of any script), digits, dots, dashes or underscores.');
    return this.store.transaction(async () => {
      // One user per name, however many processes issue tokens for it at once.
      await this.store.lock(`user:${username}`);
      const user =
        (await this.#users.first('username', username)) ??
        (await this.#users.insert({ id: newId('usr'), username, created_at: this.clock.now() }));
      const accessToken = newSecret('cpe_at_');
      await this.#accessTokens.insert({ id: hashSecret(accessToken), user_id: user.id, created_at: this.clock.now() });
      return { user, accessToken };
    });
  }

  async userOf(accessToken: string): Promise<User | undefined> {
    const token = await this.#accessTokens.get(hashSecret(accessToken));
    return token && this.#users.get(token.user_id);
  }

  /** Requires `Authorization: Bearer <access token>` and sets `ctx.state.userId`. */
  authenticate(): Middleware<AppState> {
    return async (ctx, next) => {
      const secret = bearer(ctx.get('authorization'));
      if (!secret) throw unauthenticated('Send your access token as `Authorization: Bearer <token>`.');
      const user = await this.userOf(secret);
      if (!user) throw unauthenticated('Invalid access token.');
      ctx.state.userId = user.id;
      ctx.state.rateKey = `user:${user.id}`;
      return next();
    };
  }
}
