/**
 * An in-process OAuth world for unit tests: a fetch function that plays a protected MCP server, its
 * resource metadata and an authorization server, with hooks to make any of them misbehave. Records
 * every request (URL, method, form body) so tests can assert what the client sent.
 */
export interface Seen {
  url: string;
  method: string;
  form?: URLSearchParams;
  json?: Record<string, unknown>;
  headers: Headers;
}

type Route = (req: Request, seen: Seen) => Response | Promise<Response> | undefined;

export const MCP = 'https://mcp.example.com/mcp';
export const AS = 'https://auth.example.com';

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

export function asMetadata(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    issuer: AS,
    authorization_endpoint: `${AS}/authorize`,
    token_endpoint: `${AS}/token`,
    registration_endpoint: `${AS}/register`,
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    ...extra,
  };
}

export class FakeOAuth {
  readonly seen: Seen[] = [];
  readonly routes = new Map<string, Route>();
  /** The access tokens the MCP endpoint accepts, with their scopes. */
  readonly valid = new Map<string, string[]>();
  /** Scopes the MCP endpoint requires (403 insufficient_scope otherwise). */
  required: string[] = [];
  issued = 0;

  constructor() {
    this.routes.set(`${new URL(MCP).origin}/.well-known/oauth-protected-resource/mcp`, () =>
      json({ resource: MCP, authorization_servers: [AS] }),
    );
    this.routes.set(`${AS}/.well-known/oauth-authorization-server`, () => json(asMetadata()));
    this.routes.set(`${AS}/register`, (_r, s) =>
      json({ client_id: 'dcr-client', redirect_uris: s.json?.redirect_uris }, 201),
    );
    this.routes.set(`${AS}/token`, (_r, s) => {
      const grant = s.form?.get('grant_type');
      if (grant === 'refresh_token' && s.form?.get('refresh_token') !== 'refresh-1')
        return json({ error: 'invalid_grant' }, 400);
      const token = `at-${++this.issued}`;
      const scope = s.form?.get('scope') ?? this.lastScope ?? '';
      this.valid.set(token, scope.split(' ').filter(Boolean));
      return json({ access_token: token, token_type: 'Bearer', expires_in: 3600, refresh_token: 'refresh-1', scope });
    });
    this.routes.set(MCP, (req) => {
      const auth = req.headers.get('authorization');
      const token = auth?.startsWith('Bearer ') ? auth.slice(7) : undefined;
      const scopes = token ? this.valid.get(token) : undefined;
      if (!scopes) return new Response(null, { status: 401, headers: { 'www-authenticate': 'Bearer' } });
      const missing = this.required.filter((s) => !scopes.includes(s));
      if (missing.length)
        return new Response(null, {
          status: 403,
          headers: { 'www-authenticate': `Bearer error="insufficient_scope", scope="${missing.join(' ')}"` },
        });
      return json({ ok: true });
    });
  }

  lastScope?: string;

  /** The authorize step of a user who approves: the redirect back with code, state and iss. */
  approve(url: URL, overrides: Record<string, string | null> = {}): URL {
    this.lastScope = url.searchParams.get('scope') ?? undefined;
    this.seen.push({ url: url.href, method: 'GET', headers: new Headers() });
    const back = new URL(url.searchParams.get('redirect_uri')!);
    const params: Record<string, string | null> = {
      code: 'code-1',
      state: url.searchParams.get('state'),
      iss: url.origin,
      ...overrides,
    };
    for (const [k, v] of Object.entries(params)) if (v !== null) back.searchParams.set(k, v);
    return back;
  }

  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const req = new Request(input, init);
    const url = new URL(req.url);
    const key = `${url.origin}${url.pathname}`;
    const text = req.method === 'POST' ? await req.text() : '';
    const seen: Seen = { url: req.url, method: req.method, headers: req.headers };
    if (req.headers.get('content-type')?.includes('x-www-form-urlencoded')) seen.form = new URLSearchParams(text);
    if (req.headers.get('content-type')?.includes('json') && text) seen.json = JSON.parse(text);
    this.seen.push(seen);
    const route = this.routes.get(key);
    return (await route?.(req, seen)) ?? new Response('not found', { status: 404 });
  };

  urls(): string[] {
    return this.seen.map((s) => `${s.method} ${s.url.split('?')[0]}`);
  }
}
