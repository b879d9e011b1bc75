/**
 * The installed command: `onemodelcontext bridge --stdio --command "…"` started by each official
 * client as its stdio server, in front of server-everything (itself a stdio child). Needs `npm run build`.
 */
import { join } from 'node:path';
import { EVERYTHING, legacyPeer, modernPeer, type Peer } from './peers';

jest.setTimeout(60_000);

const BIN = join(__dirname, '../../../bin/onemodelcontext.js');
const target = {
  command: process.execPath,
  args: [BIN, 'bridge', '--stdio', '--command', `"${process.execPath}" "${EVERYTHING}" stdio`],
};

test.each([
  ['the official v2 client (2026-07-28, input_required rounds)', modernPeer],
  ['the official v1 client (2025-11-25, real asks on the stdio session)', legacyPeer],
] as const)('%s reaches elicitation, sampling and roots', async (_title, connect) => {
  const peer: Peer = await connect(target);
  try {
    const tools = await peer.listTools();
    expect(tools).toEqual(expect.arrayContaining(['trigger-elicitation-request', 'get-roots-list', 'echo']));
    expect((await peer.call('trigger-elicitation-request')).text).toContain('Ada');
    expect((await peer.call('trigger-sampling-request', { prompt: 'p', maxTokens: 5 })).text).toContain('sampled');
    expect((await peer.call('get-roots-list')).text).toContain('file:///bridged-root');
    // server-everything also asks for roots on its own 350 ms after connecting; on stdio, where no
    // request names the call it belongs to, that ask goes to the caller of the one call in flight.
    expect(peer.asks).toEqual(expect.arrayContaining(['elicitation', 'sampling', 'roots']));
  } finally {
    await peer.close();
  }
});
