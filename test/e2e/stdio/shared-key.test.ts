/**
 * Two server processes sharing a requestState key complete a flow whose rounds alternate between
 * them; with different (or ephemeral) keys the second round is refused.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { builtEntry } from '../../helpers/built-app';

const entry = builtEntry('sample-app/src/main.js');
const meta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
};

class StdioPeer {
  private readonly child: ChildProcessWithoutNullStreams;
  private buffer = '';
  private readonly waiting = new Map<number, (m: Record<string, unknown>) => void>();
  private id = 0;
  constructor(key?: string) {
    this.child = spawn(process.execPath, [entry, '--stdio'], { env: { ...process.env, REQUEST_STATE_KEY: key ?? '' } });
    this.child.stdout.on('data', (d: Buffer) => {
      this.buffer += d.toString();
      let nl;
      while ((nl = this.buffer.indexOf('\n')) >= 0) {
        const msg = JSON.parse(this.buffer.slice(0, nl)) as { id?: number };
        this.buffer = this.buffer.slice(nl + 1);
        if (typeof msg.id === 'number') this.waiting.get(msg.id)?.(msg as Record<string, unknown>);
      }
    });
  }
  call(params: Record<string, unknown>): Promise<Record<string, any>> {
    const id = ++this.id;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.child.stdin.write(
        JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { ...params, _meta: meta } }) + '\n',
      );
    });
  }
  close() {
    this.child.stdin.end();
  }
}

const book = { name: 'book_flight', arguments: { flightId: 'BER-VIE-128' } };
const answers = {
  confirm: { action: 'accept', content: { confirm: true } },
  passenger: { action: 'accept', content: { fullName: 'Ada Lovelace', email: 'ada@example.com', seat: 'aisle' } },
};

test('a shared key lets rounds alternate between processes; a different key is refused', async () => {
  const key = randomBytes(32).toString('base64url');
  const [a, b, stranger] = [
    new StdioPeer(key),
    new StdioPeer(key),
    new StdioPeer(randomBytes(32).toString('base64url')),
  ];
  try {
    const r1 = await a.call(book);
    expect(r1.result.resultType).toBe('input_required');
    const r2 = await b.call({
      ...book,
      inputResponses: { confirm: answers.confirm },
      requestState: r1.result.requestState,
    });
    expect(r2.result.resultType).toBe('input_required');
    const refused = await stranger.call({
      ...book,
      inputResponses: { passenger: answers.passenger },
      requestState: r2.result.requestState,
    });
    expect(refused.error).toEqual({
      code: -32602,
      message: 'Invalid or expired requestState',
      data: { reason: 'invalid_request_state' },
    });
    const r3 = await a.call({
      ...book,
      inputResponses: { passenger: answers.passenger },
      requestState: r2.result.requestState,
    });
    expect(r3.result).toMatchObject({
      resultType: 'complete',
      content: [{ text: expect.stringMatching(/^Booked BER-VIE-128 for Ada Lovelace/) }],
    });
  } finally {
    [a, b, stranger].forEach((p) => p.close());
  }
});

test('ephemeral keys: another process refuses the state', async () => {
  const [a, b] = [new StdioPeer(), new StdioPeer()];
  try {
    const r1 = await a.call(book);
    const r2 = await b.call({
      ...book,
      inputResponses: { confirm: answers.confirm },
      requestState: r1.result.requestState,
    });
    expect(r2.error).toMatchObject({ code: -32602 });
  } finally {
    [a, b].forEach((p) => p.close());
  }
});
