/**
 * Where a client keeps what sign-in produced, per resource (the MCP server's URL): the issuer it
 * came from, the client registration there and the tokens. Credentials are bound to their issuer:
 * when the resource moves to another authorization server, both are dropped (SEP-2352).
 * The default keeps them in memory for the life of the client; pass a `TokenStore` to persist.
 */
import type { Awaitable } from '../options';

export interface ClientRegistration {
  clientId: string;
  clientSecret?: string;
  /** How the client authenticates at the token endpoint. */
  authMethod: TokenEndpointAuthMethod;
}

export type TokenEndpointAuthMethod = 'none' | 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt';

export interface StoredTokens {
  accessToken: string;
  tokenType: string;
  refreshToken?: string;
  /** Epoch milliseconds. */
  expiresAt?: number;
  /** The scopes granted (or requested, when the server did not say). */
  scope?: string;
}

export interface StoredAuth {
  issuer: string;
  client?: ClientRegistration;
  tokens?: StoredTokens;
}

export interface TokenStore {
  load(resource: string): Awaitable<StoredAuth | undefined>;
  save(resource: string, value: StoredAuth): Awaitable<void>;
  clear(resource: string): Awaitable<void>;
}

export class MemoryTokenStore implements TokenStore {
  private readonly entries = new Map<string, StoredAuth>();
  load(resource: string): StoredAuth | undefined {
    return this.entries.get(resource);
  }
  save(resource: string, value: StoredAuth): void {
    this.entries.set(resource, value);
  }
  clear(resource: string): void {
    this.entries.delete(resource);
  }
}
