/**
 * `readinessPort`: readiness answered by a worker thread on a port of its own, from what the main
 * thread publishes — so it answers while the request loop is busy (here: blocked outright), and
 * says `draining` once the server closes.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContextServerModule, McpApplication, Tool } from '../../../src';
import { serveHttp, type HttpServerHandle } from '../../../src/transports/http';
import { silentLogger } from '../../../src/server/core/server-logger';
import { modernPost, rawRequest } from '../../helpers/http-fixtures';

class Slow {
  static release: () => void = () => undefined;
  static running = false;
  @Tool({ description: 'waits until released' })
  async wait() {
    Slow.running = true;
    await new Promise<void>((resolve) => (Slow.release = resolve));
    return 'done';
  }
}

let server: HttpServerHandle;
beforeAll(async () => {
  const app = McpApplication.create({
    name: 'ready-thread',
    version: '1.0.0',
    providers: [Slow],
    modules: [ContextServerModule.configure({ logger: silentLogger, requestStateKey: randomBytes(32) })],
  });
  server = await serveHttp(app, { port: 0, readinessPort: 0 });
});
afterAll(() => server.close({ deadlineMs: 1000 }));

const ready = async (path = '/ready', method = 'GET') => {
  const r = await rawRequest(`http://127.0.0.1:${server.readinessPort}${path}`, { method });
  return { status: r.status, body: r.text };
};

test('200 ready with the key fingerprint on its own port; other paths 404, other methods 405', async () => {
  expect(server.readinessPort).toBeGreaterThan(0);
  const r = await ready();
  expect(r.status).toBe(200);
  expect(JSON.parse(r.body)).toEqual({ status: 'ready', requestStateKey: expect.stringMatching(/^[0-9a-f]{16}$/) });
  expect((await ready('/mcp')).status).toBe(404);
  expect((await ready('/ready', 'POST')).status).toBe(405);
});

test('answers while the main thread is blocked', () => {
  const dir = mkdtempSync(join(tmpdir(), 'omc-ready-'));
  const out = join(dir, 'answer.json');
  try {
    // The probe runs in another process; this thread blocks until its answer is written (a safety
    // net of 20 s ends the loop if it never is: readiness on the main loop could not answer now).
    const probe = `require('http').get('http://127.0.0.1:${server.readinessPort}/ready', (res) => {
      let b = ''; res.on('data', (c) => (b += c));
      res.on('end', () => {
        const fs = require('fs');
        fs.writeFileSync(${JSON.stringify(out + '.part')}, JSON.stringify({ status: res.statusCode, body: b }));
        fs.renameSync(${JSON.stringify(out + '.part')}, ${JSON.stringify(out)});
      });
    });`;
    const child = spawn(process.execPath, ['-e', probe], { stdio: 'ignore' });
    const giveUpAt = Date.now() + 20_000;
    while (!existsSync(out) && Date.now() < giveUpAt) {
      // busy: no turn of the event loop until the probe's answer is on disk
    }
    child.kill();
    expect(existsSync(out)).toBe(true);
    const answer = JSON.parse(readFileSync(out, 'utf8'));
    expect(answer.status).toBe(200);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('draining once close() begins; the thread ends with the server', async () => {
  const call = modernPost(server.url, 2, 'tools/call', { name: 'wait', arguments: {} });
  while (!Slow.running) await new Promise((res) => setTimeout(res, 10));
  const closing = server.close({ deadlineMs: 10_000 });
  let r = await ready();
  while (r.status === 200) {
    await new Promise((res) => setTimeout(res, 20));
    r = await ready();
  }
  expect(r.status).toBe(503);
  expect(JSON.parse(r.body).status).toBe('draining');
  Slow.release();
  await call;
  await closing;
  // Nothing answers any more (a kept-alive socket hangs up, a new one is refused).
  await expect(ready()).rejects.toThrow(/ECONNREFUSED|socket hang up|ECONNRESET/);
});
