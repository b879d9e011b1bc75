/**
 * A 2026-07-28 upstream (our conformance server) behind the bridge: the official v1 client's calls
 * complete with real asks (the upstream's input_required rounds become requests on the caller's
 * session, the upstream retried with the answers); the official v2 client gets them passed
 * through statelessly (the upstream's requestState sealed inside ours).
 */
import 'reflect-metadata';
import { createConformanceApp } from '../../../conformance/app';
import { runBridge, type RunningBridge } from '../../../src/bridge/serve-bridge';
import { serveHttp, type HttpServerHandle } from '../../../src/transports/http';
import { legacyPeer, modernPeer } from './peers';

jest.setTimeout(60_000);

let upstream: HttpServerHandle;
let bridge: RunningBridge;
beforeAll(async () => {
  upstream = await serveHttp(createConformanceApp(), { port: 0 });
  bridge = await runBridge({ url: upstream.url, port: 0, stdio: false }, { PORT: undefined });
});
afterAll(async () => {
  await bridge.close();
  await upstream.close({ deadlineMs: 1000 });
});

test('the bridge speaks 2026-07-28 to it', async () => {
  expect(bridge.mount.names('tools')).toContain('test_input_required_result_multi_round');
});

describe.each([
  ['official v1 client (real asks)', legacyPeer],
  ['official v2 client (input_required passed through)', modernPeer],
] as const)('%s', (_title, connect) => {
  test('its MRTR tools complete', async () => {
    const peer = await connect(bridge.url!);
    try {
      expect((await peer.call('test_input_required_result_elicitation')).text).toBe('Hello, Ada!');
      expect((await peer.call('test_input_required_result_sampling')).text).toContain('sampled by the caller');
      expect((await peer.call('test_input_required_result_list_roots')).text).toContain('file:///bridged-root');
      expect((await peer.call('test_input_required_result_multi_round')).text).toMatch(/^Ada likes/);
      expect((await peer.call('test_input_required_result_multiple_inputs')).text).toContain('Ada');
      expect((await peer.call('test_input_required_result_request_state')).text).toBe('state-ok: confirmed=true');
      expect(peer.asks.filter((a) => a === 'elicitation').length).toBeGreaterThanOrEqual(4);
      expect(await peer.getPrompt('test_input_required_result_prompt')).toBeTruthy();
    } finally {
      await peer.close();
    }
  });
});
