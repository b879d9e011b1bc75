/**
 * Lingering close (nginx's `lingering_close`): a response that ends the connection while its
 * request is still arriving (413 on an oversize body, an answer given before the body was read)
 * half-closes, then reads and drops what the client still sends, within a byte and a time cap.
 * Closing at once would leave unread bytes in the kernel, which answers them with RST; a client
 * still writing its body then fails its next write and never reads the response already waiting
 * for it. Node only (node:net).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';

/**
 * Bytes read and dropped after the response, at most. What the kernel buffers already hold when the
 * response goes out arrives at once and counts here (Linux: up to tcp_rmem + tcp_wmem, 4 + 6 MiB by
 * default): past them the client has been sending while the response sat in its receive buffer. 16 MiB
 * is about 4 request bodies' worth of reading (`maxBodyBytes` 4 MiB), dropped chunk by chunk.
 */
export const LINGER_MAX_BYTES = 16 * 1024 * 1024;
/** How long the connection lingers, at most (Apache's 2 s): a client that reads has read the response by then. */
export const LINGER_MAX_MS = 2000;

/** The request a socket's response answered before it was complete. */
const answeredEarly = new WeakMap<Socket, IncomingMessage>();

/**
 * Called when a response is sent while its request is not complete yet (which, as node:http parses,
 * includes every answer given synchronously): if node:http then closes the connection (a
 * `Connection: close` response) and the request is still incomplete, the close lingers.
 */
export function lingerIfIncomplete(res: ServerResponse): void {
  const socket = res.socket;
  if (!socket) return;
  answeredEarly.set(socket, res.req);
  socket.destroySoon = destroySoonLingering;
}

/**
 * node:http closes a connection after its last response with `socket.destroySoon()` (its resOnFinish),
 * which destroys the socket once the response is written. This one decides then, when the request's
 * fate is known: still incomplete, the close lingers; complete, nothing is left unread.
 */
function destroySoonLingering(this: Socket): void {
  const req = answeredEarly.get(this);
  if (req && !req.complete) lingeringClose(this);
  else Socket.prototype.destroySoon.call(this);
}

/**
 * Half-closes (FIN after what is written), then drops what arrives until the client's EOF, the byte
 * cap or the time cap, and destroys the socket. node:http's parser is taken off the socket: it would
 * read the rest as the next request (adding a 'data' listener is what detaches it, as for an upgrade).
 */
export function lingeringClose(socket: Socket): void {
  socket.removeAllListeners('data');
  // node:http's own would parse the EOF as a truncated request and report a client error.
  socket.removeAllListeners('end');
  const limit = socket.bytesRead + LINGER_MAX_BYTES;
  const timer = setTimeout(() => socket.destroy(), LINGER_MAX_MS);
  socket.on('data', () => {
    if (socket.bytesRead > limit) socket.destroy();
  });
  socket.once('end', () => socket.destroy());
  socket.once('close', () => clearTimeout(timer));
  socket.end();
  socket.resume();
}
