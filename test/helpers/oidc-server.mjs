// A real authorization server for the tests: oidc-provider (ESM) on loopback, in its own process.
// Reads its configuration as JSON from argv[2]; prints one line `{"issuer": …}` once listening.
// Besides the provider's own endpoints it answers POST /test/sign (claims → a JWT signed with the
// provider's own key), so tests can craft expired, wrong-audience and tampered tokens that carry a
// genuine signature. Never expose such a route outside tests.
import { createServer } from 'node:http';
import Provider from 'oidc-provider';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';

const config = JSON.parse(process.argv[2] ?? '{}');
const { privateKey } = await generateKeyPair('ES256', { extractable: true });
const jwk = { ...(await exportJWK(privateKey)), kid: 'as-key-1', alg: 'ES256', use: 'sig' };

let provider;
let issuer;
const server = createServer((req, res) => {
  if (req.method === 'POST' && req.url === '/test/sign') return signForTest(req, res);
  provider.callback()(req, res);
});
server.listen(0, '127.0.0.1', () => {
  issuer = `http://127.0.0.1:${server.address().port}`;
  provider = new Provider(issuer, {
    clients: config.clients,
    jwks: { keys: [jwk] },
    scopes: config.scopes,
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => config.resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => {
          if (!config.resources.includes(resource)) throw new Error(`unknown resource ${resource}`);
          return {
            scope: config.scopes.join(' '),
            audience: resource,
            accessTokenTTL: 300,
            accessTokenFormat: config.opaque ? 'opaque' : 'jwt',
            jwt: { sign: { alg: 'ES256' } },
          };
        },
      },
    },
  });
  process.stdout.write(`${JSON.stringify({ issuer })}\n`);
});

async function signForTest(req, res) {
  let body = '';
  for await (const chunk of req) body += chunk;
  const { claims, header } = JSON.parse(body);
  const jwt = await new SignJWT(claims)
    .setProtectedHeader({ alg: 'ES256', kid: jwk.kid, typ: 'at+jwt', ...header })
    .sign(privateKey);
  res.writeHead(200, { 'content-type': 'text/plain' }).end(jwt);
}
