// A real authorization server for the client sign-in tests: oidc-provider (ESM) on loopback, in its
// own process. Reads its configuration as JSON from argv[2]; prints `{"issuer": …}` once listening.
// Dynamic registration is open; authorization code (PKCE) and client credentials issue JWT access
// tokens for the configured resource (RFC 8707). The login and consent interaction is answered
// programmatically (user "alice" approves every requested scope), so a headless client that follows
// redirects signs in without a browser. Test-only: never run this configuration anywhere else.
import { createServer } from 'node:http';
import Provider from 'oidc-provider';
import { exportJWK, generateKeyPair } from 'jose';

const config = JSON.parse(process.argv[2] ?? '{}');
const { privateKey } = await generateKeyPair('ES256', { extractable: true });
const jwk = { ...(await exportJWK(privateKey)), kid: 'sign-in-key-1', alg: 'ES256', use: 'sig' };

let provider;
const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url?.startsWith('/interaction/')) return interact(req, res);
  provider.callback()(req, res);
});

async function interact(req, res) {
  try {
    const details = await provider.interactionDetails(req, res);
    if (details.prompt.name === 'login') {
      await provider.interactionFinished(req, res, { login: { accountId: 'alice' } }, { mergeWithLastSubmission: false });
      return;
    }
    const grant = details.grantId
      ? await provider.Grant.find(details.grantId)
      : new provider.Grant({ accountId: details.session.accountId, clientId: details.params.client_id });
    const missing = details.prompt.details;
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
      grant.addResourceScope(resource, scopes.join(' '));
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  } catch (e) {
    res.writeHead(500, { 'content-type': 'text/plain' }).end(String(e));
  }
}

server.listen(0, '127.0.0.1', () => {
  const issuer = `http://127.0.0.1:${server.address().port}`;
  provider = new Provider(issuer, {
    clients: config.clients ?? [],
    jwks: { keys: [jwk] },
    scopes: ['openid', 'offline_access', ...config.scopes],
    clientDefaults: { id_token_signed_response_alg: 'ES256', token_endpoint_auth_method: 'none' },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    issueRefreshToken: async (_ctx, client, code) =>
      client.grantTypeAllowed('refresh_token') && code.scopes.has('offline_access'),
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => config.resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => {
          if (resource !== config.resource) throw new Error(`unknown resource ${resource}`);
          return {
            scope: config.scopes.join(' '),
            audience: resource,
            accessTokenTTL: 300,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'ES256' } },
          };
        },
      },
    },
  });
  process.stdout.write(`${JSON.stringify({ issuer })}\n`);
});
