/**
 * The sample app over stdio (a child process): a 2025-06-18 session receives the passenger form
 * flattened (no `mode`, titled seat as enum + enumNames, no string default); a 2025-11-25 session
 * receives the same form with mode, oneOf and the default.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { builtEntry } from '../../helpers/built-app';

const entry = builtEntry('sample-app/src/main.js');

class LegacyStdioPeer {
  private readonly child: ChildProcessWithoutNullStreams;
  private buffer = '';
  private readonly waiting = new Map<number, (m: Record<string, any>) => void>();
  readonly asked: Array<Record<string, any>> = [];

  constructor(private readonly answer: (ask: Record<string, any>) => unknown) {
    this.child = spawn(process.execPath, [entry, '--stdio'], { env: { ...process.env, REQUEST_STATE_KEY: '' } });
    this.child.stdout.on('data', (d: Buffer) => {
      this.buffer += d.toString();
      let nl;
      while ((nl = this.buffer.indexOf('\n')) >= 0) {
        const msg = JSON.parse(this.buffer.slice(0, nl)) as Record<string, any>;
        this.buffer = this.buffer.slice(nl + 1);
        if (typeof msg.method === 'string' && msg.id !== undefined) {
          this.asked.push(msg);
          this.write({ jsonrpc: '2.0', id: msg.id, result: this.answer(msg) });
        } else if (typeof msg.id === 'number') this.waiting.get(msg.id)?.(msg);
      }
    });
  }
  private write(m: unknown) {
    this.child.stdin.write(JSON.stringify(m) + '\n');
  }
  request(id: number, method: string, params: Record<string, unknown>): Promise<Record<string, any>> {
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.write({ jsonrpc: '2.0', id, method, params });
    });
  }
  async initialize(version: string) {
    const r = await this.request(0, 'initialize', {
      protocolVersion: version,
      capabilities: { elicitation: {} },
      clientInfo: { name: 'stdio-test', version: '0' },
    });
    this.write({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return r.result;
  }
  close() {
    this.child.stdin.end();
  }
}

function answer(ask: Record<string, any>) {
  const props = ask.params.requestedSchema.properties;
  if ('confirm' in props) return { action: 'accept', content: { confirm: true } };
  return { action: 'accept', content: { fullName: 'Ada Lovelace', email: 'ada@example.com', seat: 'aisle' } };
}

async function book(version: string) {
  const peer = new LegacyStdioPeer(answer);
  try {
    expect((await peer.initialize(version)).protocolVersion).toBe(version);
    const r = await peer.request(1, 'tools/call', { name: 'book_flight', arguments: { flightId: 'BER-VIE-128' } });
    return { asked: peer.asked, result: r.result };
  } finally {
    peer.close();
  }
}

test('2025-06-18 over stdio: the passenger form arrives flat, without mode, and the booking completes', async () => {
  const { asked, result } = await book('2025-06-18');
  const passenger = asked.find((a) => a.params.requestedSchema.properties.seat)!;
  expect(passenger.params).not.toHaveProperty('mode');
  expect(passenger.params.requestedSchema.properties.seat).toEqual({
    type: 'string',
    title: 'Seat',
    enum: ['window', 'aisle', 'middle'],
    enumNames: ['Window', 'Aisle', 'Middle'],
  });
  expect(asked.every((a) => !('mode' in a.params))).toBe(true);
  expect(result.isError).toBeFalsy();
  expect(JSON.stringify(result.content)).toMatch(/Ada Lovelace|TD-/);
});

test('2025-11-25 over stdio: the same form keeps mode, oneOf and its default', async () => {
  const { asked } = await book('2025-11-25');
  const passenger = asked.find((a) => a.params.requestedSchema.properties.seat)!;
  expect(passenger.params.mode).toBe('form');
  expect(passenger.params.requestedSchema.properties.seat).toMatchObject({
    oneOf: [
      { const: 'window', title: 'Window' },
      { const: 'aisle', title: 'Aisle' },
      { const: 'middle', title: 'Middle' },
    ],
    default: 'window',
  });
});
