/**
 * `onemodelcontext bridge` in front of the official reference server (SDK v1, legacy only), as a
 * stdio child and over its streamableHttp mode: the official v2 client reaches its elicitation,
 * sampling and roots tools through input_required rounds, the official v1 client through real asks.
 */
import 'reflect-metadata';
import { runBridge, type RunningBridge } from '../../../src/bridge/serve-bridge';
import { ANSWERS, EVERYTHING, everythingOverHttp, legacyPeer, modernPeer, type Peer } from './peers';

jest.setTimeout(60_000);

const ASKING = ['trigger-elicitation-request', 'trigger-sampling-request', 'get-roots-list'];
const quiet = { ...process.env, PORT: undefined };

async function exercise(peer: Peer): Promise<void> {
  const tools = await peer.listTools();
  for (const name of [...ASKING, 'echo']) expect(tools).toContain(name);
  expect((await peer.call('echo', { message: 'hi' })).text).toContain('hi');

  const elicited = await peer.call('trigger-elicitation-request');
  expect(elicited.isError).toBeUndefined();
  expect(elicited.text).toContain('Ada');
  const sampled = await peer.call('trigger-sampling-request', { prompt: 'hello', maxTokens: 20 });
  expect(sampled.text).toContain('sampled by the caller');
  const rooted = await peer.call('get-roots-list');
  expect(rooted.text).toContain(ANSWERS.roots.roots[0]!.uri);
  expect(peer.asks).toEqual(expect.arrayContaining(['elicitation', 'sampling', 'roots']));
}

describe.each([
  ['stdio child (--command)', 'stdio'],
  ['its streamableHttp mode (--url)', 'http'],
] as const)('bridge in front of server-everything, %s', (_title, mode) => {
  let bridge: RunningBridge;
  let upstream: Awaited<ReturnType<typeof everythingOverHttp>> | undefined;
  // A bridge per test: server-everything caches the roots of its (one, shared) upstream session,
  // so a second caller on the same bridge would be shown the first caller's roots without an ask.
  beforeEach(async () => {
    if (mode === 'http') upstream = await everythingOverHttp();
    bridge = await runBridge(
      mode === 'stdio'
        ? { command: `"${process.execPath}" "${EVERYTHING}" stdio`, port: 0, stdio: false }
        : { url: upstream!.url, port: 0, stdio: false },
      quiet,
    );
  });
  afterEach(async () => {
    await bridge?.close();
    await upstream?.stop();
  });

  test('the official v2 client (2026-07-28) answers input_required rounds', async () => {
    const peer = await modernPeer(bridge.url!);
    try {
      await exercise(peer);
    } finally {
      await peer.close();
    }
  });

  test('the official v1 client (2025-11-25) answers real asks', async () => {
    const peer = await legacyPeer(bridge.url!);
    try {
      await exercise(peer);
    } finally {
      await peer.close();
    }
  });
});
