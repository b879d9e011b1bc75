/** A protected app for the OAuth tests: a real oidc-provider, our server on a known loopback port. */
import { randomBytes } from 'node:crypto';
import { IsString } from 'class-validator';
import {
  Context,
  ContextServerModule,
  Field,
  McpApplication,
  OAuthResourceModule,
  RequireScopes,
  serveHttp,
  Tool,
  type HttpOptions,
  type HttpServerHandle,
  type OAuthResourceInit,
} from '../../../src';
import { freePort } from '../../helpers/free-port';
import { startOidcProvider, type OidcClient, type OidcProviderHandle } from '../../helpers/oidc-provider';

export const alice: OidcClient = { client_id: 'alice', client_secret: 'alice-secret-alice-secret-alice-secret' };
export const bob: OidcClient = { client_id: 'bob', client_secret: 'bob-secret-bob-secret-bob-secret-bob' };
export const SCOPES = ['tools:read', 'tools:write'];

export const calls = { count: 0 };

class Text {
  @IsString() @Field() text!: string;
}
class NameForm {
  @IsString() name!: string;
}

export class ProtectedTools {
  @Tool({ description: 'Who is calling' })
  whoami(_args: Text, ctx: Context) {
    calls.count++;
    const p = ctx.principal as { id: string; scopes?: string[]; clientId?: string } | undefined;
    return JSON.stringify({ id: p?.id, scopes: p?.scopes, clientId: p?.clientId });
  }
  @Tool({ description: 'Elicits a name' })
  async greet(_args: Text, ctx: Context) {
    calls.count++;
    const r = await ctx.elicit(NameForm, 'Your name?', { key: 'user_name' });
    return r.action === 'accept' ? `Hello, ${r.content.name}!` : 'no';
  }
}

/** Every tool needs tools:read; `erase` needs tools:write too. */
@RequireScopes('tools:read')
export class ScopedTools {
  @Tool({ description: 'Reads' })
  peek(_args: Text) {
    calls.count++;
    return 'peeked';
  }
  @RequireScopes('tools:write')
  @Tool({ description: 'Writes' })
  erase(_args: Text) {
    calls.count++;
    return 'erased';
  }
}

export interface ProtectedSetup {
  as: OidcProviderHandle;
  server: HttpServerHandle;
  resource: string;
  logs: string[];
  stop(): Promise<void>;
}

/** The resource server's own client at the authorization server (introspection). */
export const introspector: OidcClient = {
  client_id: 'mcp-server',
  client_secret: 'mcp-server-secret-mcp-server-secret',
};

export async function startProtected(
  extra: Partial<OAuthResourceInit> | ((issuer: string) => Partial<OAuthResourceInit>) = {},
  asOptions: { opaque?: boolean } = {},
  http: Partial<HttpOptions> = {},
): Promise<ProtectedSetup> {
  const port = await freePort();
  const resource = `http://127.0.0.1:${port}/mcp`;
  const as = await startOidcProvider({
    resources: [resource, 'http://127.0.0.1:9/elsewhere'],
    scopes: SCOPES,
    clients: [alice, bob, introspector],
    opaque: asOptions.opaque,
  });
  const logs: string[] = [];
  const app = protectedApp(resource, as.issuer, logs, typeof extra === 'function' ? extra(as.issuer) : extra);
  const server = await serveHttp(app, { ...http, port });
  return {
    as,
    server,
    resource,
    logs,
    stop: async () => {
      await server.close();
      await as.stop();
    },
  };
}

/** The protected app for `resource`, trusting `issuer`; its logger writes into `logs`. */
export function protectedApp(
  resource: string,
  issuer: string,
  logs: string[] = [],
  extra: Partial<OAuthResourceInit> = {},
): McpApplication {
  const logger = { warn: (m: string) => logs.push(m), error: (m: string) => logs.push(m) };
  return McpApplication.create({
    name: 'protected',
    version: '1.0.0',
    providers: [ProtectedTools, ScopedTools],
    modules: [
      ContextServerModule.configure({ logger, requestStateKey: randomBytes(32) }),
      OAuthResourceModule.configure({
        resource,
        authorizationServers: [issuer],
        scopesSupported: ['tools:read'],
        ...extra,
      }),
    ],
  });
}
