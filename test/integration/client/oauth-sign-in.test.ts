/**
 * Issue 17, client half, against a real authorization server: oidc-provider on loopback (dynamic
 * registration, PKCE, RFC 8707 resource indicators, RFC 9207 `iss`, JWT access tokens). The
 * protected MCP server is our McpApplication behind a minimal resource server that publishes
 * RFC 9728 metadata and checks each token with jose (issuer, audience = this resource, scopes),
 * answering 401 or 403 `insufficient_scope` as the MCP authorization spec says.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type * as Jose from 'jose';
import {
  ContextClient,
  ContextServerModule,
  createNodeHandler,
  followRedirect,
  InsufficientScopeError,
  loopbackRedirect,
  McpApplication,
  type CallToolResult,
} from '../../../src';
import { startSignInProvider, type SignInProvider } from '../../helpers/oidc-sign-in';

const silent = { debug() {}, info() {}, warn() {}, error() {} };
const MACHINE = { client_id: 'billing-bot', client_secret: 'bot-secret-1' };

let provider: SignInProvider;
let server: Server;
let resource: string;
let jwks: ReturnType<typeof Jose.createRemoteJWKSet>;
let jose: typeof Jose;
const subjects: string[] = [];

function makeApp(): McpApplication {
  const app = McpApplication.create({
    name: 'protected',
    version: '1.0.0',
    providers: [],
    modules: [ContextServerModule.configure({ logger: silent })],
  });
  app.addTool({ name: 'whoami', description: 'who called', input: { type: 'object' }, handler: () => 'hello' });
  app.addTool({ name: 'wipe', description: 'needs mcp:admin', input: { type: 'object' }, handler: () => 'wiped' });
  return app;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  let text = '';
  for await (const chunk of req) text += chunk;
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

beforeAll(async () => {
  jose = await import('jose');
  const mcp = createNodeHandler(makeApp());
  server = createServer((req, res) => {
    void (async () => {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const metadataUrl = `${base}/.well-known/oauth-protected-resource/mcp`;
      if (req.url === '/.well-known/oauth-protected-resource/mcp') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ resource, authorization_servers: [provider.issuer], scopes_supported: ['mcp:read'] }));
        return;
      }
      const body = req.method === 'POST' ? await readBody(req) : undefined;
      const auth = req.headers.authorization;
      let scopes: string[] = [];
      try {
        if (!auth?.startsWith('Bearer ')) throw new Error('no token');
        const { payload } = await jose.jwtVerify(auth.slice(7), jwks, { issuer: provider.issuer, audience: resource });
        scopes = String(payload.scope ?? '').split(' ');
        subjects.push(String(payload.sub ?? payload.client_id));
      } catch {
        res.writeHead(401, { 'www-authenticate': `Bearer resource_metadata="${metadataUrl}", scope="mcp:read"` });
        res.end();
        return;
      }
      const params = (body as { method?: string; params?: { name?: string } } | undefined) ?? {};
      const needed = params.method === 'tools/call' && params.params?.name === 'wipe' ? 'mcp:admin' : 'mcp:read';
      if (!scopes.includes(needed)) {
        res.writeHead(403, {
          'www-authenticate': `Bearer error="insufficient_scope", scope="${needed}", resource_metadata="${metadataUrl}"`,
        });
        res.end();
        return;
      }
      mcp(req, res, body);
    })();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  resource = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  provider = await startSignInProvider({
    resource,
    scopes: ['mcp:read', 'mcp:admin'],
    clients: [
      {
        ...MACHINE,
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        token_endpoint_auth_method: 'client_secret_basic',
        scope: 'mcp:read',
      },
    ],
  });
  jwks = jose.createRemoteJWKSet(new URL(`${provider.issuer}/jwks`));
}, 30_000);

afterAll(async () => {
  await provider?.stop();
  await new Promise<void>((r) => server.close(() => r()));
});

const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;

test.each(['2026-07-28', '2025-11-25'] as const)(
  'authorization code + PKCE, registered dynamically, redirect followed headlessly (%s)',
  async (protocolVersion) => {
    const client = await ContextClient.connect(
      { url: resource, auth: { redirect: followRedirect({ redirectUri: 'http://127.0.0.1:8976/callback' }) } },
      { protocolVersion },
    );
    expect(text(await client.callTool('whoami'))).toBe('hello');
    expect(subjects.at(-1)).toBe('alice');
    await client.close();
  },
);

test('client credentials for a machine (client_secret_basic)', async () => {
  const client = await ContextClient.connect({
    url: resource,
    auth: { grant: 'client_credentials', clientId: MACHINE.client_id, clientSecret: MACHINE.client_secret },
  });
  expect(text(await client.callTool('whoami'))).toBe('hello');
  expect(subjects.at(-1)).toBe(MACHINE.client_id);
  // The machine is not allowed mcp:admin: the token endpoint refuses the wider scope.
  await expect(client.callTool('wipe')).rejects.toMatchObject({ oauthError: 'invalid_scope' });
  await client.close();
});

test('step-up: a call that needs mcp:admin re-authorizes with mcp:read and mcp:admin, then succeeds', async () => {
  const seen: URL[] = [];
  const follow = followRedirect({ redirectUri: 'http://127.0.0.1:8976/callback' });
  const client = await ContextClient.connect({
    url: resource,
    auth: {
      redirect: {
        redirectUri: follow.redirectUri,
        authorize: (url, signal) => (seen.push(url), follow.authorize(url, signal)),
      },
      maxStepUps: 1,
    },
  });
  expect(text(await client.callTool('whoami'))).toBe('hello');
  expect(text(await client.callTool('wipe'))).toBe('wiped');
  const scopes = seen.map((u) => u.searchParams.get('scope')?.split(' ').sort());
  expect(scopes[0]).toContain('mcp:read');
  expect(scopes[1]).toEqual(expect.arrayContaining(['mcp:admin', 'mcp:read']));
  expect(seen.every((u) => u.searchParams.get('resource') === resource)).toBe(true);
  await client.close();
});

test('a CLI sign-in through the loopback callback server', async () => {
  const loopback = loopbackRedirect({
    // The "browser": follows the authorization server's pages, then lands on the callback server.
    open: async (url) => {
      const redirectUri = new URL(url).searchParams.get('redirect_uri')!;
      const back = await followRedirect({ redirectUri }).authorize(new URL(url), AbortSignal.timeout(10_000));
      await (await fetch(back)).text();
    },
  });
  const client = await ContextClient.connect({ url: resource, auth: { redirect: loopback } });
  expect(text(await client.callTool('whoami'))).toBe('hello');
  await client.close();
  await loopback.close!();
});

test('a client without mcp:admin that is refused stops after maxStepUps', async () => {
  const client = await ContextClient.connect({
    url: resource,
    auth: {
      grant: 'client_credentials',
      clientId: MACHINE.client_id,
      clientSecret: MACHINE.client_secret,
      maxStepUps: 0,
    },
  });
  await expect(client.callTool('wipe')).rejects.toBeInstanceOf(InsufficientScopeError);
  await client.close();
});
