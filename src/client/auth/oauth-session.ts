/**
 * One client's sign-in to one protected MCP server, as a fetch wrapper the HTTP transport sends
 * every request through: the stored access token goes in `Authorization: Bearer`; a 401 runs
 * discovery and the configured grant (refreshing first when it can) and sends the request again
 * once; a 403 `insufficient_scope` re-authorizes with the union of scopes, at most `maxStepUps`
 * times per request. Concurrent requests share one sign-in. Tokens are never logged or put in
 * error messages.
 */
import { AuthDiscoveryError, AuthenticationFailedError, InsufficientScopeError } from './auth-errors';
import type { OAuthOptions } from './auth-options';
import { readAuthorizationResponse } from './authorization-response';
import type { BoundedFetchOptions } from './bounded-fetch';
import { discover, type Discovered } from './discovery';
import { DpopKey } from './dpop';
import { createPkce, createState } from './pkce';
import { resolveClient } from './registration';
import { selectScope } from './scope';
import { requestToken } from './token-endpoint';
import {
  MemoryTokenStore,
  type ClientRegistration,
  type StoredAuth,
  type StoredTokens,
  type TokenStore,
} from './token-store';
import { parseBearerChallenge, type BearerChallenge } from './www-authenticate';

/** Refresh this long before `expires_in` runs out. */
const EXPIRY_SKEW_MS = 30_000;

type Reason = 'unauthorized' | 'step-up';

/** RFC 8707 / MCP canonical URI: lower-case scheme and host, no fragment. */
export function canonicalResource(url: string): string {
  const u = new URL(url);
  u.hash = '';
  return u.href;
}

export class OAuthSession {
  private readonly store: TokenStore;
  private readonly key: string;
  private inflight?: Promise<void>;
  private dpopKey?: Promise<DpopKey>;
  /** The resource server's latest DPoP nonce (RFC 9449 §9). */
  private resourceNonce?: string;

  constructor(
    private readonly serverUrl: string,
    private readonly options: Readonly<OAuthOptions>,
    private readonly baseFetch: typeof fetch,
  ) {
    this.store = options.tokenStore ?? new MemoryTokenStore();
    this.key = canonicalResource(serverUrl);
  }

  /** The fetch the transport uses. */
  readonly fetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const signal = init.signal ?? undefined;
    const attempt = async (): Promise<Response> => {
      const headers = new Headers(init.headers);
      const tokens = await this.currentTokens(signal);
      if (tokens?.tokenType === 'DPoP' && this.dpopKey) {
        headers.set('authorization', `DPoP ${tokens.accessToken}`);
        const url = input instanceof Request ? input.url : String(input);
        const method = init.method ?? (input instanceof Request ? input.method : 'GET');
        const key = await this.dpopKey;
        const nonce = this.resourceNonce;
        headers.set('dpop', await key.proof({ method, url, accessToken: tokens.accessToken, nonce }));
      } else if (tokens) headers.set('authorization', `Bearer ${tokens.accessToken}`);
      const res = await this.baseFetch(input, { ...init, headers });
      this.resourceNonce = res.headers.get('dpop-nonce') ?? this.resourceNonce;
      return res;
    };
    // A resource server that wants a (new) DPoP nonce says so with a 401: once more, with it.
    const send = async (): Promise<Response> => {
      const res = await attempt();
      if (res.status !== 401 || !this.dpopKey || !res.headers.has('dpop-nonce')) return res;
      if (parseBearerChallenge(res.headers.get('www-authenticate')).error !== 'use_dpop_nonce') return res;
      await consume(res);
      return attempt();
    };
    let res = await send();
    if (res.status === 401) {
      const challenge = await consume(res);
      await this.signIn(challenge, 'unauthorized', signal);
      res = await send();
      if (res.status === 401) {
        await consume(res);
        throw new AuthenticationFailedError('The server still answers 401 after signing in.');
      }
    }
    for (let stepUps = 0; res.status === 403; stepUps++) {
      const challenge = parseBearerChallenge(res.headers.get('www-authenticate'));
      if (challenge.error !== 'insufficient_scope') break;
      await consume(res);
      if (stepUps >= this.options.maxStepUps) throw new InsufficientScopeError(challenge.scope, stepUps);
      await this.signIn(challenge, 'step-up', signal);
      res = await send();
    }
    return res;
  };

  /** Forgets this server's tokens (the registration is kept). */
  async signOut(): Promise<void> {
    const stored = await this.store.load(this.key);
    if (!stored) return;
    await this.store.save(this.key, { issuer: stored.issuer, ...(stored.client && { client: stored.client }) });
  }

  private get fetchOptions(): BoundedFetchOptions {
    return { fetch: this.options.fetch ?? this.baseFetch, timeoutMs: this.options.timeoutMs };
  }

  private async currentTokens(signal?: AbortSignal): Promise<StoredTokens | undefined> {
    if (this.inflight) await this.inflight.catch(() => undefined);
    const stored = await this.store.load(this.key);
    const tokens = stored?.tokens;
    if (!tokens?.expiresAt || tokens.expiresAt - EXPIRY_SKEW_MS > Date.now()) return tokens;
    if (!tokens.refreshToken || !stored?.client) return undefined;
    await this.coalesce(() => this.refreshOnly(stored, signal)).catch(() => undefined);
    return (await this.store.load(this.key))?.tokens;
  }

  private signIn(challenge: BearerChallenge, reason: Reason, signal?: AbortSignal): Promise<void> {
    return this.coalesce(() => this.run(challenge, reason, signal));
  }

  private coalesce(work: () => Promise<void>): Promise<void> {
    if (!this.inflight) this.inflight = work().finally(() => (this.inflight = undefined));
    return this.inflight;
  }

  private async refreshOnly(stored: StoredAuth, signal?: AbortSignal): Promise<void> {
    const found = await discover(this.serverUrl, undefined, { ...this.fetchOptions, signal });
    if (found.server.issuer !== stored.issuer) return this.store.clear(this.key);
    await this.refresh(found, stored, signal);
  }

  private async refresh(found: Discovered, stored: StoredAuth, signal?: AbortSignal): Promise<boolean> {
    if (!stored.tokens?.refreshToken || !stored.client) return false;
    try {
      const tokens = await requestToken(
        {
          tokenEndpoint: found.server.tokenEndpoint,
          issuer: found.server.issuer,
          client: stored.client,
          key: this.key_(),
          dpop: await this.dpopFor(found),
          params: {
            grant_type: 'refresh_token',
            refresh_token: stored.tokens.refreshToken,
            resource: this.resourceOf(found),
          },
        },
        { ...this.fetchOptions, signal },
      );
      // A refresh response may omit the refresh token and scope: keep the ones we had.
      tokens.refreshToken ??= stored.tokens.refreshToken;
      tokens.scope ??= stored.tokens.scope;
      await this.store.save(this.key, { issuer: stored.issuer, client: stored.client, tokens });
      return true;
    } catch {
      await this.store.save(this.key, { issuer: stored.issuer, client: stored.client });
      return false;
    }
  }

  private async run(challenge: BearerChallenge, reason: Reason, signal?: AbortSignal): Promise<void> {
    const options = { ...this.fetchOptions, signal };
    const found = await discover(this.serverUrl, challenge.resourceMetadata, options);
    const issuer = found.server.issuer;
    let stored = await this.store.load(this.key);
    // Credentials belong to the authorization server that issued them (SEP-2352).
    if (stored && stored.issuer !== issuer) {
      await this.store.clear(this.key);
      stored = undefined;
    }
    if (reason === 'unauthorized' && stored && (await this.refresh(found, stored, signal))) return;
    const scope = selectScope({
      challenged: challenge.scope,
      configured: this.options.scope,
      resourceSupported: found.resource?.scopesSupported,
      serverSupported: this.options.grant === 'authorization_code' ? found.server.scopesSupported : undefined,
      prior: stored?.tokens?.scope,
      offlineAccess: this.options.offlineAccess,
    });
    const redirectUri =
      this.options.grant === 'authorization_code' ? await this.options.redirect!.redirectUri() : undefined;
    let client = stored?.client;
    if (!client) {
      client = await resolveClient(found.server, this.options, redirectUri, options);
      await this.store.save(this.key, { issuer, client });
    }
    const tokens =
      this.options.grant === 'authorization_code'
        ? await this.authorizationCode(found, client, redirectUri!, scope, signal)
        : await requestToken(
            {
              tokenEndpoint: found.server.tokenEndpoint,
              issuer,
              client,
              key: this.key_(),
              dpop: await this.dpopFor(found),
              params: { ...(await this.machineGrant(found)), scope, resource: this.resourceOf(found) },
            },
            options,
          );
    await this.store.save(this.key, { issuer, client, tokens });
  }

  private async authorizationCode(
    found: Discovered,
    client: ClientRegistration,
    redirectUri: string,
    scope: string | undefined,
    signal?: AbortSignal,
  ): Promise<StoredTokens> {
    const { server } = found;
    if (!server.authorizationEndpoint)
      throw new AuthDiscoveryError(`${server.issuer} has no authorization_endpoint for the authorization code grant.`);
    if (server.codeChallengeMethods && !server.codeChallengeMethods.includes('S256'))
      throw new AuthDiscoveryError(`${server.issuer} does not support PKCE with S256; not signing in.`);
    const pkce = createPkce();
    const state = createState();
    const resource = this.resourceOf(found);
    const url = new URL(server.authorizationEndpoint);
    const q = url.searchParams;
    q.set('response_type', 'code');
    q.set('client_id', client.clientId);
    q.set('redirect_uri', redirectUri);
    q.set('code_challenge', pkce.challenge);
    q.set('code_challenge_method', pkce.method);
    q.set('state', state);
    if (scope) q.set('scope', scope);
    q.set('resource', resource);
    const back = await this.options.redirect!.authorize(url, signal ?? new AbortController().signal);
    const code = readAuthorizationResponse(new URL(back), {
      state,
      issuer: server.issuer,
      issRequired: server.issParameterSupported,
    });
    return requestToken(
      {
        tokenEndpoint: server.tokenEndpoint,
        issuer: server.issuer,
        client,
        key: this.key_(),
        dpop: await this.dpopFor(found),
        params: {
          grant_type: 'authorization_code',
          code,
          redirect_uri: redirectUri,
          code_verifier: pkce.verifier,
          resource,
        },
      },
      { ...this.fetchOptions, signal },
    );
  }

  /** The grant parameters of a machine: client credentials, or a workload's JWT (RFC 7523 §2.1). */
  private async machineGrant(found: Discovered): Promise<Record<string, string>> {
    if (this.options.grant === 'client_credentials') return { grant_type: 'client_credentials' };
    const target = { issuer: found.server.issuer, resource: this.resourceOf(found) };
    return { grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: await this.options.assertion!(target) };
  }

  /** The session's DPoP key, when asked for and the authorization server takes ES256 proofs. */
  private dpopFor(found: Discovered): Promise<DpopKey> | undefined {
    if (!this.options.dpop || !found.server.dpopAlgorithms?.includes('ES256')) return undefined;
    this.dpopKey ??= DpopKey.create('ES256');
    return this.dpopKey;
  }

  /** The resource indicator: the metadata's `resource` (checked to be this server), else the server's URL. */
  private resourceOf(found: Discovered): string {
    return found.resource?.resource ?? this.key;
  }

  private key_(): { privateKeyPem: string; algorithm: string } | undefined {
    return this.options.privateKey
      ? { privateKeyPem: this.options.privateKey, algorithm: this.options.signingAlgorithm }
      : undefined;
  }
}

/** Reads the challenge and discards the body (bounded: the body is cancelled, not read). */
async function consume(res: Response): Promise<BearerChallenge> {
  const challenge = parseBearerChallenge(res.headers.get('www-authenticate'));
  await res.body?.cancel().catch(() => undefined);
  return challenge;
}
