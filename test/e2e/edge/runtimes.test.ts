/**
 * The edge example (test/edge/app.ts, built from `onemodelcontext/web` by scripts/build-edge.mjs)
 * served by workerd, Deno and Bun — each installed from the npm registry as a devDependency — and
 * driven over real HTTP by ContextClient on 2026-07-28: tools/list, a tool call, and a tool that asks
 * twice and keeps a value in the sealed requestState between rounds (a forged state is refused).
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { callInfo, ContextClient, ServerError, type ElicitFormParams, type ElicitResult } from 'onemodelcontext';

const root = join(__dirname, '..', '..', '..');
const bin = (name: string) => join(root, 'node_modules', '.bin', name);

const RUNTIMES: Record<string, string[]> = {
  workerd: [bin('workerd'), 'serve', 'test/edge/workerd.capnp', '--socket-addr', 'http=127.0.0.1:0', '--control-fd=1'],
  deno: [bin('deno'), 'run', '--allow-net=127.0.0.1', 'test/edge/serve-deno.js'],
  bun: [bin('bun'), 'test/edge/serve-bun.js'],
};

beforeAll(() => {
  if (!existsSync(join(root, 'dist/esm/web.js'))) throw new Error('dist/ is missing: run `npm run build` (npm test does).');
  execFileSync(process.execPath, ['scripts/build-edge.mjs'], { cwd: root, stdio: 'pipe' });
}, 120_000);

describe.each(Object.keys(RUNTIMES))('the fetch handler under %s', (runtime) => {
  let child: ChildProcess;
  let url: string;
  const output: string[] = [];

  beforeAll(async () => {
    const [command, ...args] = RUNTIMES[runtime]!;
    const env = { ...process.env, NO_COLOR: '1' };
    child = spawn(command!, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env });
    child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    const port = await new Promise<number>((resolve, reject) => {
      const lines = createInterface({ input: child.stdout! });
      lines.on('line', (line) => {
        output.push(line);
        // workerd's control fd: {"event":"listen","socket":"http","port":N}; Deno and Bun: "listening on N".
        const found = /"port":(\d+)/.exec(line) ?? /^listening on (\d+)$/.exec(line);
        if (found) resolve(Number(found[1]));
      });
      child.once('exit', (code) => reject(new Error(`${runtime} exited (${code}) before listening:\n${output.join('')}`)));
    });
    url = `http://127.0.0.1:${port}/mcp`;
  }, 60_000);

  afterAll(async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  });

  const connect = () =>
    ContextClient.connect(
      { url },
      {
        clientInfo: { name: 'edge-test', version: '1.0.0' },
        protocolVersion: '2026-07-28',
        elicitation: (params: ElicitFormParams): ElicitResult => ({
          action: 'accept',
          content: JSON.stringify(params.requestedSchema).includes('"confirm"') ? { confirm: true } : { seats: 2 },
        }),
      },
    );

  test('tools/list, a tool call, and a two-round ask with sealed state', async () => {
    const client = await connect();
    try {
      expect((await client.listTools()).map((t) => t.name).sort()).toEqual(['book', 'greet']);
      const greeting = await client.callTool('greet', { name: 'Ada' });
      expect(greeting.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
      // Arguments are validated (by class-validator alone where code generation is forbidden).
      const refused = await client.callTool('greet', { name: 42 });
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toMatch(/name must be a string/);

      const booked = await client.callTool('book');
      const text = (booked.content?.[0] as { text: string }).text;
      // The reference was set in the first round and came back through the sealed state twice.
      expect(text).toMatch(/^booked 2 seats \(R\d+\)$/);
      expect(callInfo(booked)).toMatchObject({ era: 'modern', rounds: 3 });
    } finally {
      await client.close();
    }
  }, 60_000);

  test('a forged requestState is refused and the handler is not entered', async () => {
    const client = await connect();
    try {
      const first = (await client.callTool('book', {}, { manual: true })) as { requestState?: string };
      expect(typeof first.requestState).toBe('string');
      const state = first.requestState!;
      const forged = state.slice(0, -2) + (state.endsWith('AA') ? 'BB' : 'AA');
      const reply = await client
        .request('tools/call', { name: 'book', arguments: {}, requestState: forged, inputResponses: {} })
        .catch((e: unknown) => e);
      expect(reply).toBeInstanceOf(ServerError);
      expect((reply as ServerError).code).toBe(-32602);
    } finally {
      await client.close();
    }
  }, 60_000);
});

test('workerd: a Worker without requestStateKey fails as it loads, naming the option', async () => {
  // Workers refuse random bytes in the global scope; createFetchHandler draws the ephemeral key there.
  const [command] = RUNTIMES.workerd!;
  const args = ['serve', 'test/edge/workerd-no-key.capnp', '--socket-addr', 'http=127.0.0.1:0', '--control-fd=1'];
  const child = spawn(command!, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const code = await new Promise<number | null>((resolve) => {
    child.once('exit', resolve);
    // Listening means the Worker loaded: the guard is gone. Stop it (the assertion below says why).
    child.stdout!.on('data', (chunk: Buffer) => String(chunk).includes('"listen"') && child.kill('SIGTERM'));
  });
  const text = output.join('');
  expect(text).not.toContain('"listen"');
  expect(code).not.toBe(0);
  expect(text).toMatch(/OMC_INVALID_OPTIONS.*no requestStateKey is set.*Disallowed operation called within global scope/s);
}, 60_000);
