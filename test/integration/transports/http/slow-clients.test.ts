/** G3/G4: slow headers and slow bodies are cut off by the configured timeouts; valid requests still pass. */
import { connect, type Socket } from 'node:net';
import { serveHttp, type HttpServerHandle } from '../../../../src/transports/http';
import { makeApp, modernPost } from '../../../helpers/http-fixtures';

let server: HttpServerHandle;
beforeAll(async () => {
  server = await serveHttp(makeApp(), { port: 0, headersTimeoutMs: 1000, requestTimeoutMs: 1500 });
});
afterAll(() => server.close({ deadlineMs: 1000 }));

/**
 * Opens a socket, sends `head`, then one byte of `drip` every 200 ms; resolves with what the server said when it
 * closed.
 */
function trickle(head: string, drip: string): Promise<string> {
  return new Promise((resolve) => {
    const socket: Socket = connect(server.port, '127.0.0.1');
    let said = '';
    let i = 0;
    const timer = setInterval(() => {
      if (!socket.destroyed && i < drip.length) socket.write(drip[i++]!);
    }, 200);
    socket.on('data', (d) => (said += d.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      resolve(said);
    });
    socket.write(head);
  });
}

async function validCallStillWorks() {
  expect((await modernPost(server.url, 1, 'tools/list')).status).toBe(200);
}

test('a client dripping header bytes is disconnected by headersTimeout', async () => {
  const said = await trickle(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n`, 'X-Slow: ' + 'a'.repeat(200));
  expect(said).toMatch(/^HTTP\/1\.1 408 Request Timeout/);
  await validCallStillWorks();
}, 15_000);

test('a client dripping its body is disconnected by requestTimeout', async () => {
  const head = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: 500\r\n\r\n`;
  const said = await trickle(head, '{'.repeat(200));
  expect(said).toMatch(/^HTTP\/1\.1 408 Request Timeout/);
  await validCallStillWorks();
}, 15_000);
