/**
 * Why server-everything's asking tools can be missing: it registers `trigger-elicitation-request`,
 * `trigger-sampling-request` and `get-roots-list` at `notifications/initialized`, only for a client
 * that declared the matching capability — over stdio and HTTP alike. Our client declares a
 * capability per input handler given; none given, none declared, no such tools. The bridge's
 * upstream client gives all of them.
 */
import 'reflect-metadata';
import { ContextClient } from '../../../src';
import { EVERYTHING } from './peers';

jest.setTimeout(30_000);

const ASKING = ['get-roots-list', 'trigger-elicitation-request', 'trigger-sampling-request'];
const target = { command: process.execPath, args: [EVERYTHING, 'stdio'], stderr: 'ignore' as const };

async function askingTools(init: Parameters<typeof ContextClient.connect>[1]): Promise<string[]> {
  const client = await ContextClient.connect(target, init);
  try {
    return (await client.listTools()).map((t) => t.name).filter((n) => ASKING.includes(n)).sort();
  } finally {
    await client.close();
  }
}

test('a client that declares no capabilities never sees them (over stdio too)', async () => {
  expect(await askingTools({})).toEqual([]);
});

test('declaring elicitation, sampling and roots (what the bridge does) shows all three', async () => {
  const refuse = () => {
    throw new Error('not asked in this test');
  };
  expect(await askingTools({ elicitation: refuse, sampling: refuse, roots: refuse })).toEqual(ASKING);
});
