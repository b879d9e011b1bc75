/**
 * Issue 17 end to end, our two halves together: our protected server (OAuthResourceModule: RFC 9728
 * metadata, JWT verification with jose) trusting a real oidc-provider, and our ContextClient signing
 * in to it, with authorization code + PKCE (registered dynamically, redirect followed headlessly)
 * and with client credentials. The principal the handler sees is the user or the machine.
 */
import {
  ContextClient,
  followRedirect,
  serveHttp,
  type CallToolResult,
  type HttpServerHandle,
} from '../../../src';
import { freePort } from '../../helpers/free-port';
import { startSignInProvider, type SignInProvider } from '../../helpers/oidc-sign-in';
import { protectedApp } from '../auth/protected-app';

const MACHINE = { client_id: 'nightly-job', client_secret: 'nightly-secret-nightly-secret-nightly' };

let provider: SignInProvider;
let server: HttpServerHandle;
let resource: string;

beforeAll(async () => {
  const port = await freePort();
  resource = `http://127.0.0.1:${port}/mcp`;
  provider = await startSignInProvider({
    resource,
    scopes: ['tools:read', 'tools:write'],
    clients: [
      {
        ...MACHINE,
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
  });
  server = await serveHttp(protectedApp(resource, provider.issuer), { port });
}, 30_000);

afterAll(async () => {
  await server?.close();
  await provider?.stop();
});

const who = (r: CallToolResult) =>
  JSON.parse((r.content[0] as { text: string }).text) as { id?: string; scopes?: string[]; clientId?: string };

test.each(['2026-07-28', '2025-11-25'] as const)('a user signs in with authorization code + PKCE (%s)', async (v) => {
  const client = await ContextClient.connect(
    { url: resource, auth: { redirect: followRedirect({ redirectUri: 'http://127.0.0.1:8976/callback' }) } },
    { protocolVersion: v },
  );
  const me = who(await client.callTool('whoami', { text: 'hi' }));
  expect(me.id).toBe(`sub:alice@${provider.issuer}`);
  expect(me.scopes).toContain('tools:read');
  await client.close();
});

test('a multi-round call stays signed in across its rounds (2026: requestState bound to the subject)', async () => {
  const client = await ContextClient.connect(
    { url: resource, auth: { redirect: followRedirect({ redirectUri: 'http://127.0.0.1:8976/callback' }) } },
    { protocolVersion: '2026-07-28', elicitation: () => ({ action: 'accept', content: { name: 'Ada' } }) },
  );
  const result = await client.callTool('greet', { text: 'x' });
  expect((result.content[0] as { text: string }).text).toBe('Hello, Ada!');
  await client.close();
});

test('a machine signs in with client credentials (client_secret_post)', async () => {
  const client = await ContextClient.connect({
    url: resource,
    auth: {
      grant: 'client_credentials',
      clientId: MACHINE.client_id,
      clientSecret: MACHINE.client_secret,
      tokenEndpointAuthMethod: 'client_secret_post',
    },
  });
  const me = who(await client.callTool('whoami', { text: 'hi' }));
  expect(me.clientId).toBe(MACHINE.client_id);
  await client.close();
});
