/**
 * The conformance runner's `auth/*` client scenarios: one well-behaved client for all of them. It
 * signs in headlessly (the mock authorization server redirects straight back with a code), uses
 * the runner's fixed client ID metadata document URL where the server supports it, the
 * pre-registered credentials the scenario passes in MCP_CONFORMANCE_CONTEXT, and client
 * credentials for the `client-credentials-*` extension scenarios, DPoP for the `dpop*` ones.
 */
import { ContextClient, followRedirect, idJagAssertion, type ContextClientInit, type OAuthInit } from '../../src';

/** The URL the runner expects as client id when the server supports client ID metadata documents. */
const CIMD_URL = 'https://conformance-test.local/client-metadata.json';

interface AuthContext {
  client_id?: string;
  valid_jwt?: string;
  idp_client_id?: string;
  idp_id_token?: string;
  idp_token_endpoint?: string;
  client_secret?: string;
  private_key_pem?: string;
  signing_algorithm?: string;
}

function authOptions(scenario: string, context: AuthContext): OAuthInit {
  if (scenario === 'auth/enterprise-managed-authorization') {
    const idToken = context.idp_id_token ?? '';
    return {
      grant: 'jwt_bearer',
      clientId: context.client_id,
      ...(context.client_secret !== undefined && { clientSecret: context.client_secret }),
      assertion: idJagAssertion({
        tokenEndpoint: context.idp_token_endpoint ?? '',
        idToken: () => idToken,
        ...(context.idp_client_id !== undefined && { clientId: context.idp_client_id }),
      }),
    };
  }
  if (scenario === 'auth/wif-jwt-bearer') {
    const jwt = context.valid_jwt ?? '';
    return { grant: 'jwt_bearer', clientId: context.client_id, assertion: () => jwt };
  }
  if (scenario.startsWith('auth/client-credentials-')) {
    return {
      grant: 'client_credentials',
      clientId: context.client_id,
      ...(context.client_secret !== undefined && { clientSecret: context.client_secret }),
      ...(context.private_key_pem !== undefined && {
        privateKey: context.private_key_pem,
        signingAlgorithm: context.signing_algorithm ?? 'ES256',
      }),
    };
  }
  return {
    redirect: followRedirect(),
    clientMetadataUrl: CIMD_URL,
    clientName: 'onemodelcontext-conformance-client',
    dpop: scenario.startsWith('auth/dpop'),
    ...(context.client_id !== undefined && { clientId: context.client_id }),
    ...(context.client_secret !== undefined && { clientSecret: context.client_secret }),
  };
}

export async function runAuthScenario(
  url: string,
  scenario: string,
  context: AuthContext,
  options: ContextClientInit,
): Promise<void> {
  const client = await ContextClient.connect({ url, auth: authOptions(scenario, context) }, options);
  try {
    await client.listTools();
    await client.callTool('test-tool', {});
  } finally {
    await client.close();
  }
}
