/**
 * Lingering close: a response that closes the connection while the request body is still arriving
 * (413 on a declared or streamed oversize body, 431 mid-headers, 415 before the body is read) must
 * reach the client. Closing a socket with unread bytes makes the kernel send RST, and a client still writing
 * its body then fails its next write (EPIPE/ECONNRESET) and never reads the answer waiting for it.
 * These clients wait for the server to have sent its response and FIN (an event on the server's
 * socket), and only then send more and read: without the lingering close the answer is lost every
 * time, with it the client reads the whole response, then EOF. Real sockets, no sleeps.
 */
import { connect, type Socket } from 'node:net';
import { request as httpRequest } from 'node:http';
import { serveHttp, type HttpServerHandle } from '../../../../src/transports/http';
import { LINGER_MAX_BYTES } from '../../../../src/transports/http/lingering-close';
import { JSON_HEADERS, makeApp, modernPost, trackProcessFaults } from '../../../helpers/http-fixtures';

let server: HttpServerHandle;
const faults = trackProcessFaults();
const LIMIT = 4 * 1024 * 1024;

beforeAll(async () => {
  server = await serveHttp(makeApp(), { port: 0 });
});
const clients: Socket[] = [];
afterEach(() => {
  for (const c of clients.splice(0)) c.destroy();
});
afterAll(async () => {
  await server.close({ deadlineMs: 2000 });
  faults.stop();
  expect(faults.faults).toEqual([]);
});

const stillServes = async (handle = server) => {
  const r = await modernPost(handle.url, 'ok', 'tools/call', { name: 'echo', arguments: { text: 'alive' } });
  expect(r.status).toBe(200);
};

/** A raw client, its server-side socket, and what each side has seen. */
interface Pair {
  client: Socket;
  server: Socket;
  /** The server wrote its last byte and its FIN ('finish' on its socket). */
  serverFinished: Promise<void>;
  serverClosed: Promise<void>;
  /** The first error on the client socket (EPIPE/ECONNRESET when the server reset it). */
  clientError(): string | undefined;
}

async function open(handle = server, { allowHalfOpen = false } = {}): Promise<Pair> {
  const accepted = new Promise<Socket>((r) => handle.server.once('connection', r));
  // allowHalfOpen: the client's side stays open after the server's FIN (node's default ends it too).
  const client = connect({ port: handle.port, host: '127.0.0.1', allowHalfOpen });
  clients.push(client);
  let error: string | undefined;
  client.on('error', (e: NodeJS.ErrnoException) => (error ??= e.code ?? e.message));
  // This client reads nothing until it is done writing (a busy client, or one that writes its body first).
  client.pause();
  await new Promise((r) => client.once('connect', r));
  const socket = await accepted;
  return {
    client,
    server: socket,
    serverFinished: new Promise((r) => socket.once('finish', r)),
    serverClosed: new Promise((r) => socket.once('close', r)),
    clientError: () => error,
  };
}

function head(port: number, framing: string): string {
  return (
    `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
    `Accept: application/json\r\n${framing}\r\n\r\n`
  );
}

/** Writes `total` bytes, one piece after the kernel took the previous; stops at the first error. */
async function writeSteadily(socket: Socket, total: number, piece = 64 * 1024, chunked = false): Promise<void> {
  const data = Buffer.alloc(piece, 0x20);
  const framed = chunked ? Buffer.concat([Buffer.from(`${piece.toString(16)}\r\n`), data, Buffer.from('\r\n')]) : data;
  for (let sent = 0; sent < total && !socket.destroyed; sent += piece) {
    const ok = await new Promise<boolean>((r) => socket.write(framed, (e) => r(!e)));
    if (!ok) return;
  }
}

/** Everything the client can read until EOF (or until its socket fails). */
function readAll(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    if (socket.destroyed) return resolve(text);
    socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
    socket.once('end', () => resolve(text));
    socket.once('close', () => resolve(text));
    socket.resume();
  });
}

/** A whole HTTP response: the status and a body as long as its Content-Length says. */
function parsed(text: string): { status: number; body: string; close: boolean } {
  const end = text.indexOf('\r\n\r\n');
  const headText = text.slice(0, end);
  const m = /^HTTP\/1\.1 (\d{3})/.exec(headText);
  const length = Number(/\r\ncontent-length: *(\d+)/i.exec(headText)?.[1]);
  const body = text.slice(end + 4);
  expect(end).toBeGreaterThan(0);
  expect(body.length).toBe(length);
  return { status: Number(m?.[1]), body, close: /\r\nconnection: *close/i.test(headText) };
}

test('declared Content-Length over the cap: a client still sending after the 413 reads all of it, then EOF', async () => {
  const pair = await open();
  pair.client.write(head(server.port, `Content-Length: ${64 * 1024 * 1024}`));
  // The 413 went out before any body byte was read; the client sends 1 MiB of it only now.
  await pair.serverFinished;
  await writeSteadily(pair.client, 1024 * 1024);
  expect(pair.clientError()).toBeUndefined();
  pair.client.end();
  const response = parsed(await readAll(pair.client));
  expect(response.status).toBe(413);
  expect(response.close).toBe(true);
  expect(JSON.parse(response.body).error.code).toBe(-32600);
  expect(pair.clientError()).toBeUndefined();
  await pair.serverClosed;
  await stillServes();
});

test('chunked body over the cap: 413 while streaming, and the rest the client sends is drained, not reset', async () => {
  const pair = await open();
  pair.client.write(head(server.port, 'Transfer-Encoding: chunked'));
  // Just past the cap: the server stops reading, answers and half-closes; then 1 MiB more arrives.
  await writeSteadily(pair.client, LIMIT + 64 * 1024, 64 * 1024, true);
  await pair.serverFinished;
  await writeSteadily(pair.client, 1024 * 1024, 64 * 1024, true);
  expect(pair.clientError()).toBeUndefined();
  pair.client.end();
  const response = parsed(await readAll(pair.client));
  expect(response.status).toBe(413);
  expect(pair.clientError()).toBeUndefined();
  await pair.serverClosed;
  await stillServes();
});

test('415 before the body is read, on a connection the client asked to close: the answer is not reset either', async () => {
  const pair = await open();
  pair.client.write(
    `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Type: text/plain\r\nAccept: application/json\r\n` +
      `Connection: close\r\nContent-Length: ${2 * 1024 * 1024}\r\n\r\n`,
  );
  await pair.serverFinished;
  await writeSteadily(pair.client, 1024 * 1024);
  expect(pair.clientError()).toBeUndefined();
  pair.client.end();
  expect(parsed(await readAll(pair.client)).status).toBe(415);
  await pair.serverClosed;
});

test('headers over maxHeaderBytes: the 431 reaches a client still sending, then EOF', async () => {
  const pair = await open();
  pair.client.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nX-Padding: ${'x'.repeat(20 * 1024)}`);
  await pair.serverFinished;
  await writeSteadily(pair.client, 8 * 1024 * 1024);
  expect(pair.clientError()).toBeUndefined();
  pair.client.end();
  expect(await readAll(pair.client)).toMatch(/^HTTP\/1\.1 431 /);
  await pair.serverClosed;
  await stillServes();
});

test('a client that never stops sending is cut off after the byte cap; the data is dropped; the server keeps serving', async () => {
  const pair = await open();
  pair.client.write(head(server.port, `Content-Length: ${1024 * 1024 * 1024}`));
  await pair.serverFinished;
  const readAtFinish = pair.server.bytesRead;
  // Writes until the server closes on it: up to 1 GiB, far past the cap.
  const writing = writeSteadily(pair.client, 1024 * 1024 * 1024);
  await pair.serverClosed;
  await writing;
  // What the server read after its answer: the cap, plus at most one read's worth past it.
  expect(pair.server.bytesRead - readAtFinish).toBeGreaterThan(LINGER_MAX_BYTES);
  expect(pair.server.bytesRead - readAtFinish).toBeLessThanOrEqual(LINGER_MAX_BYTES + 256 * 1024);
  expect(pair.clientError()).toMatch(/^(ECONNRESET|EPIPE)$/);
  // Read as it came (flowing), nothing left queued in the socket's buffer.
  expect(pair.server.readableLength).toBe(0);
  await stillServes();
});

test('a client that stops sending but never closes is closed after the time cap, and close() is not held by it', async () => {
  const local = await serveHttp(makeApp(), { port: 0 });
  try {
    const pair = await open(local, { allowHalfOpen: true });
    pair.client.write(head(local.port, `Content-Length: ${64 * 1024 * 1024}`));
    await pair.serverFinished;
    await writeSteadily(pair.client, 256 * 1024);
    expect(pair.clientError()).toBeUndefined();
    // The client reads its answer and the server's FIN, but keeps its own side open.
    const received = readAll(pair.client);
    expect(parsed(await received).status).toBe(413);
    await pair.serverClosed;
    // The server let go of it, not the client: its side was never ended.
    expect(pair.client.writableEnded).toBe(false);
    await stillServes(local);
    // A lingering connection while the server drains: close() finishes (the socket is let go).
    const second = await open(local, { allowHalfOpen: true });
    second.client.write(head(local.port, `Content-Length: ${64 * 1024 * 1024}`));
    await second.serverFinished;
    await local.close({ deadlineMs: 5000 });
    await second.serverClosed;
  } finally {
    await local.close({ deadlineMs: 1000 });
  }
});

test('node:http client uploading 16 MiB gets the 413 (issue nodejs/node#9085 shape), then the server serves on', async () => {
  const status = await new Promise<number>((resolve, reject) => {
    const req = httpRequest(server.url, { method: 'POST', headers: JSON_HEADERS }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(Buffer.alloc(16 * 1024 * 1024, 0x20));
  });
  expect(status).toBe(413);
  await stillServes();
});
