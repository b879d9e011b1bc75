/**
 * How the user's browser reaches the authorization endpoint and how the redirect comes back: a
 * `RedirectHandler`. Two come with the client: `loopbackRedirect` (a CLI: opens the browser with
 * your `open` function and receives the redirect on a 127.0.0.1 callback server, RFC 8252) and
 * `followRedirect` (headless, for tests: requests the authorization URL and follows the
 * authorization server's redirects, cookies kept, until it is sent to the redirect URI).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuthorizationResponseError } from './auth-errors';

export interface RedirectHandler {
  /** The redirect URI to register and send (called before each authorization). */
  redirectUri(): string | Promise<string>;
  /** Shows the user `authorizationUrl`; resolves with the URL the browser was redirected to. */
  authorize(authorizationUrl: URL, signal: AbortSignal): Promise<URL | string>;
  /** Releases what it holds (the callback server). */
  close?(): Promise<void>;
}

function isRedirectTo(location: URL, redirectUri: string): boolean {
  const r = new URL(redirectUri);
  return location.origin === r.origin && location.pathname === r.pathname;
}

export interface FollowRedirectOptions {
  /** Default `http://localhost:3000/callback` (never listened on: the redirect is read, not followed). */
  redirectUri?: string;
  fetch?: typeof fetch;
  /** Default 10. */
  maxHops?: number;
  /**
   * Called for a page that is not a redirect (a login form): return the next request to make, or
   * undefined to give up. Tests use it for an authorization server's interaction pages.
   */
  interact?: (page: { url: URL; status: number; body: string }) => Promise<Request | undefined> | Request | undefined;
}

/** Headless: follows the authorization server's redirects until one goes to the redirect URI. */
export function followRedirect(options: FollowRedirectOptions = {}): RedirectHandler {
  const redirectUri = options.redirectUri ?? 'http://localhost:3000/callback';
  const doFetch = options.fetch ?? fetch;
  const maxHops = options.maxHops ?? 10;
  return {
    redirectUri: () => redirectUri,
    async authorize(authorizationUrl, signal) {
      // Cookies per origin: the authorization server's session never goes to another host.
      const jars = new Map<string, Map<string, string>>();
      let request = new Request(authorizationUrl, { redirect: 'manual', signal });
      for (let hop = 0; hop < maxHops; hop++) {
        const url = new URL(request.url);
        const jar = jars.get(url.origin) ?? new Map<string, string>();
        jars.set(url.origin, jar);
        const cookies = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
        if (cookies) request.headers.set('cookie', cookies);
        const res = await doFetch(request);
        for (const c of res.headers.getSetCookie?.() ?? []) {
          const [pair] = c.split(';');
          const eq = pair!.indexOf('=');
          if (eq > 0 && jar.size < 50) jar.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
        }
        const location = res.headers.get('location');
        if (res.status >= 300 && res.status < 400 && location) {
          await res.body?.cancel().catch(() => undefined);
          const next = new URL(location, url);
          if (isRedirectTo(next, redirectUri)) return next;
          request = new Request(next, { redirect: 'manual', signal });
          continue;
        }
        const body = (await res.text()).slice(0, 1_000_000);
        const next = options.interact ? await options.interact({ url, status: res.status, body }) : undefined;
        if (!next) break;
        request = new Request(next, { redirect: 'manual', signal });
      }
      throw new AuthorizationResponseError('The authorization server never redirected back to the redirect URI.');
    },
  };
}

export interface LoopbackRedirectOptions {
  /** Opens the URL in the user's browser (for example with the `open` package). */
  open: (authorizationUrl: string) => void | Promise<void>;
  /** Default 0: a free port, chosen once and kept for the life of the handler. */
  port?: number;
  /** Default `/callback`. */
  path?: string;
  /** The page the browser shows once the redirect has arrived. */
  successHtml?: string;
}

/** A CLI's sign-in: a callback server on 127.0.0.1, the browser opened with `open`. */
export function loopbackRedirect(options: LoopbackRedirectOptions): RedirectHandler {
  const path = options.path ?? '/callback';
  let server: Server | undefined;
  let uri: string | undefined;
  let waiting: ((url: URL) => void) | undefined;

  const listen = async (): Promise<string> => {
    if (uri) return uri;
    const s = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (req.method !== 'GET' || url.pathname !== path || !waiting) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(options.successHtml ?? '<p>Signed in. You may close this window.</p>');
      const resolve = waiting;
      waiting = undefined;
      resolve(new URL(`${uri}${url.search}`));
    });
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.listen(options.port ?? 0, '127.0.0.1', () => resolve());
    });
    s.unref();
    server = s;
    uri = `http://127.0.0.1:${(s.address() as AddressInfo).port}${path}`;
    return uri;
  };

  return {
    redirectUri: listen,
    async authorize(authorizationUrl, signal) {
      await listen();
      const arrived = new Promise<URL>((resolve, reject) => {
        if (signal.aborted) return reject(signal.reason);
        waiting = resolve;
        signal.addEventListener('abort', () => ((waiting = undefined), reject(signal.reason)), { once: true });
      });
      await options.open(authorizationUrl.href);
      return arrived;
    },
    async close() {
      const s = server;
      server = undefined;
      uri = undefined;
      if (!s) return;
      const closed = new Promise<void>((resolve) => s.close(() => resolve()));
      s.closeAllConnections();
      await closed;
    },
  };
}
