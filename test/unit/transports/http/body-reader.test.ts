import { PassThrough } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { readNodeBody } from '../../../../src/transports/http/node-body';

/** A stand-in request: a readable stream with the headers readNodeBody reads. */
function request(): PassThrough & IncomingMessage {
  const req = new PassThrough() as PassThrough & IncomingMessage;
  (req as { headers: Record<string, string> }).headers = {};
  return req;
}

describe('readNodeBody', () => {
  it('reads the body and lets go of its chunk listeners', async () => {
    const req = request();
    const read = readNodeBody(req, 1024);
    req.end('{"a":1}');
    await expect(read).resolves.toEqual({ ok: true, text: '{"a":1}' });
    expect(req.listenerCount('data')).toBe(0);
    expect(req.listenerCount('close')).toBe(0);
  });

  it('an error after the body was read (a reset: "aborted") is absorbed, not thrown', async () => {
    const req = request();
    const read = readNodeBody(req, 1024);
    req.end('{}');
    await read;
    // With no 'error' listener, emit() would throw: in a server that is an uncaught exception.
    expect(() => req.emit('error', new Error('aborted'))).not.toThrow();
    expect(() => req.emit('error', new Error('aborted again'))).not.toThrow();
  });

  it('a body over the limit is refused with 413', async () => {
    const req = request();
    const read = readNodeBody(req, 4);
    req.end('0123456789');
    await expect(read).resolves.toMatchObject({ ok: false, status: 413 });
  });
});
