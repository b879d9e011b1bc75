/**
 * The redirect handlers on real sockets: the loopback callback server (RFC 8252) refuses what is not
 * the awaited redirect and keeps serving; the headless follower keeps each origin's cookies to
 * itself, answers an interaction page through `interact`, and gives up on a redirect loop.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuthorizationResponseError, followRedirect, loopbackRedirect } from '../../../src';

let as: Server;
let other: Server;
let base: string;
let otherBase: string;
const cookiesSeen: { where: string; cookie?: string }[] = [];

beforeAll(async () => {
  other = createServer((req, res) => {
    cookiesSeen.push({ where: 'other', cookie: req.headers.cookie });
    res.writeHead(302, { location: `${base}/back` }).end();
  });
  as = createServer((req, res) => {
    cookiesSeen.push({ where: req.url!, cookie: req.headers.cookie });
    const url = new URL(req.url!, base);
    if (url.pathname === '/authorize')
      return res.writeHead(302, { location: '/login', 'set-cookie': 'sid=s3cret; HttpOnly' }).end();
    if (url.pathname === '/login' && req.method === 'GET') return res.writeHead(200).end('<form>login</form>');
    if (url.pathname === '/login') return res.writeHead(302, { location: `${otherBase}/hop` }).end();
    if (url.pathname === '/back') {
      const state = 'st';
      return res.writeHead(302, { location: `http://127.0.0.1:1/callback?code=c&state=${state}` }).end();
    }
    if (url.pathname === '/loop') return res.writeHead(302, { location: '/loop' }).end();
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => as.listen(0, '127.0.0.1', r));
  await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(as.address() as AddressInfo).port}`;
  otherBase = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((r) => as.close(() => r()));
  await new Promise<void>((r) => other.close(() => r()));
});

test('followRedirect: interaction answered, cookies kept per origin, stops at the redirect URI', async () => {
  const handler = followRedirect({
    redirectUri: 'http://127.0.0.1:1/callback',
    interact: ({ url, body }) =>
      body.includes('login') ? new Request(url, { method: 'POST', body: 'u=alice' }) : undefined,
  });
  const back = new URL(await handler.authorize(new URL(`${base}/authorize`), AbortSignal.timeout(5000)));
  expect(back.searchParams.get('code')).toBe('c');
  expect(cookiesSeen.find((c) => c.where === '/login')?.cookie).toBe('sid=s3cret');
  expect(cookiesSeen.find((c) => c.where === 'other')?.cookie).toBeUndefined();
});

test('followRedirect: a redirect loop or a page nobody answers is an AuthorizationResponseError', async () => {
  const handler = followRedirect({ maxHops: 5 });
  await expect(handler.authorize(new URL(`${base}/loop`), AbortSignal.timeout(5000))).rejects.toBeInstanceOf(
    AuthorizationResponseError,
  );
  await expect(handler.authorize(new URL(`${base}/login`), AbortSignal.timeout(5000))).rejects.toThrow(/never redirected/);
});

test('loopbackRedirect: hostile requests get 404 and the awaited redirect still arrives', async () => {
  let uri = '';
  const loopback = loopbackRedirect({
    open: async () => {
      const wrong = await fetch(uri.replace('/callback', '/other?code=x'));
      const post = await fetch(`${uri}?code=x`, { method: 'POST' });
      expect([wrong.status, post.status]).toEqual([404, 404]);
      await (await fetch(`${uri}?code=real&state=s`)).text();
    },
  });
  uri = await loopback.redirectUri();
  expect(uri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
  // Nothing is awaited yet: a stray hit is refused.
  expect((await fetch(`${uri}?code=early`)).status).toBe(404);
  const back = new URL(await loopback.authorize(new URL('http://as.invalid/authorize'), AbortSignal.timeout(5000)));
  expect(back.searchParams.get('code')).toBe('real');
  // Only one redirect per authorization: a replay is refused.
  expect((await fetch(`${uri}?code=replay`)).status).toBe(404);
  await loopback.close!();
});

test('loopbackRedirect: an aborted sign-in rejects', async () => {
  const loopback = loopbackRedirect({ open: () => undefined });
  const controller = new AbortController();
  const pending = loopback.authorize(new URL('http://as.invalid/authorize'), controller.signal);
  controller.abort(new Error('user gave up'));
  await expect(pending).rejects.toThrow('user gave up');
  await loopback.close!();
});
