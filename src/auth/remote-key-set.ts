/**
 * The issuer's JWK Set for `jose.jwtVerify`, fetched by us (not `createRemoteJWKSet`, whose cooldown
 * only starts after a success): the fetch streams under the answer cap, concurrent reloads are one,
 * a failed fetch is remembered for `failureCooldownMs` (with jitter), keys are used for
 * `cacheMaxAgeMs`, and an unknown `kid` reloads at most once per `kidCooldownMs`.
 */
import type * as Jose from 'jose';
import { BackedOff, type BackoffClock } from './backed-off';
import { fetchJson } from './fetch-json';

type LocalKeySet = ReturnType<typeof Jose.createLocalJWKSet>;
type GetKey = (header: Jose.JWSHeaderParameters, token: Jose.FlattenedJWSInput) => Promise<Jose.CryptoKey>;

export interface RemoteKeySetOptions {
  timeoutMs: number;
  cacheMaxAgeMs: number;
  kidCooldownMs: number;
  failureCooldownMs: number;
}

export class RemoteKeySet {
  private local?: LocalKeySet;
  private fetchedAt = -Infinity;
  private readonly loader: BackedOff<LocalKeySet>;

  constructor(
    private readonly jose: typeof Jose,
    uri: () => Promise<string>,
    private readonly o: RemoteKeySetOptions,
    private readonly clock: BackoffClock,
  ) {
    this.loader = new BackedOff(
      'the issuer JWK Set',
      async () => {
        const jwks = await fetchJson(await uri(), { timeoutMs: o.timeoutMs });
        try {
          return jose.createLocalJWKSet(jwks as unknown as Jose.JSONWebKeySet);
        } catch (e) {
          throw new Error(`not a JWK Set (${e instanceof Error ? e.message : String(e)})`);
        }
      },
      o.failureCooldownMs,
      clock,
    );
  }

  /** The key-lookup function `jwtVerify` takes. */
  readonly getKey: GetKey = async (header, token) => {
    const age = this.clock.now() - this.fetchedAt;
    if (!this.local || age >= this.o.cacheMaxAgeMs) await this.reload();
    try {
      return await this.local!(header, token);
    } catch (e) {
      if (!(e instanceof this.jose.errors.JWKSNoMatchingKey)) throw e;
      if (this.clock.now() - this.fetchedAt < this.o.kidCooldownMs) throw e;
      await this.reload();
      return this.local!(header, token);
    }
  };

  private async reload(): Promise<void> {
    const local = await this.loader.get();
    if (local !== this.local) {
      this.local = local;
      this.fetchedAt = this.clock.now();
    }
  }
}

