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
  it('reads the body; the listeners left after the end hold nothing and do nothing', async () => {
    const req = request();
    const read = readNodeBody(req, 1024);
    req.end('{"a":1}');
    await expect(read).resolves.toEqual({ ok: true, text: '{"a":1}' });
    // No per-request state stays on the request: its own keys are what they were before the read.
    expect(Object.getOwnPropertySymbols(req).map((s) => [s.description, (req as never)[s]])).not.toContainEqual([
      'onemodelcontext.bodyReading',
      expect.anything(),
    ]);
    expect(() => req.emit('data', Buffer.from('late'))).not.toThrow();
    expect(() => req.emit('close')).not.toThrow();
    // Ended: a second read finds nothing left to read.
    await expect(readNodeBody(req, 1024)).resolves.toMatchObject({ ok: false, status: 400 });
  });

  it('a request that closes before its end lets go of its chunk listeners', async () => {
    const req = request();
    const read = readNodeBody(req, 1024);
    req.write('{"a":');
    req.emit('close');
    await expect(read).resolves.toEqual({ ok: false, status: 400, reason: 'Request body incomplete' });
    expect(req.listenerCount('data')).toBe(0);
    expect(req.listenerCount('end')).toBe(0);
    expect(req.listenerCount('close')).toBe(0);
    expect(req.listenerCount('error')).toBe(1);
  });

  it('two reads of one request share it', async () => {
    const req = request();
    const first = readNodeBody(req, 1024);
    const second = readNodeBody(req, 1024);
    req.end('{"b":2}');
    await expect(first).resolves.toEqual({ ok: true, text: '{"b":2}' });
    await expect(second).resolves.toEqual({ ok: true, text: '{"b":2}' });
    expect(req.listenerCount('data')).toBe(1);
  });

  it('concurrent reads of two requests stay apart', async () => {
    const a = request();
    const b = request();
    const readA = readNodeBody(a, 1024);
    const readB = readNodeBody(b, 1024);
    b.write('{"b":');
    a.write('{"a":');
    b.end('2}');
    a.end('1}');
    await expect(readA).resolves.toEqual({ ok: true, text: '{"a":1}' });
    await expect(readB).resolves.toEqual({ ok: true, text: '{"b":2}' });
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

  it.each([
    ['ASCII', Buffer.from('{"text":"hello"}'), '{"text":"hello"}'],
    ['UTF-8 beyond ASCII', Buffer.from('{"text":"héllo ☃ 🎉"}'), '{"text":"héllo ☃ 🎉"}'],
    ['a BOM (stripped, as the strict decoder does)', Buffer.from('\uFEFF{"a":1}'), '{"a":1}'],
    ['a byte 0x7f (ASCII)', Buffer.from([0x22, 0x7f, 0x22]), '"\u007f"'],
  ])('decodes %s as the strict decoder does', async (_name, bytes, text) => {
    const req = request();
    const read = readNodeBody(req, 1024);
    req.end(bytes);
    await expect(read).resolves.toEqual({ ok: true, text });
  });

  it.each([
    ['invalid UTF-8', Buffer.from([0x7b, 0xff, 0xfe, 0x7d])],
    ['a lone continuation byte after ASCII', Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0x80, 0x22, 0x7d])])],
    ['a Latin-1 byte (not UTF-8)', Buffer.from([0x22, 0xe9, 0x22])],
  ])('refuses %s with 400', async (_name, bytes) => {
    const req = request();
    const read = readNodeBody(req, 1024);
    req.end(bytes);
    await expect(read).resolves.toEqual({ ok: false, status: 400, reason: 'Request body is not valid UTF-8' });
  });
});
