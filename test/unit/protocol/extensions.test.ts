import { declaresExtension, serverExtensions, TASKS_EXTENSION } from '../../../src/protocol/extensions';
import type { ClientCapabilities } from '../../../src/protocol/types';
import { makeApp, MemoryClient } from '../../helpers/apps';

describe('capabilities.extensions', () => {
  test.each([
    [{ extensions: { [TASKS_EXTENSION]: {} } }, true],
    [{ extensions: { [TASKS_EXTENSION]: { someSetting: 1 } } }, true],
    [{}, false],
    [{ extensions: { 'com.example/other': {} } }, false],
    [{ extensions: { [TASKS_EXTENSION]: true } }, false],
    [{ extensions: { [TASKS_EXTENSION]: null } }, false],
    [{ extensions: [TASKS_EXTENSION] }, false],
    [{ extensions: 'io.modelcontextprotocol/tasks' }, false],
    [{ extensions: JSON.parse('{"__proto__": {"io.modelcontextprotocol/tasks": {}}}') }, false],
  ])('%j declares tasks: %s', (caps, expected) => {
    expect(declaresExtension(caps as ClientCapabilities, TASKS_EXTENSION)).toBe(expected);
  });

  test('the server declares tasks on 2026-07-28 only', () => {
    expect(serverExtensions('modern')).toEqual({ [TASKS_EXTENSION]: {} });
    expect(serverExtensions('legacy')).toBeUndefined();
  });

  test('server/discover lists it; initialize does not; unknown client extensions change nothing', async () => {
    const app = makeApp([]);
    const caps = { extensions: { 'com.example/unknown': { x: 1 } } };
    const modern = await MemoryClient.connect(app, { era: 'modern', capabilities: caps });
    const discover = await modern.request('server/discover');
    expect((discover.capabilities as ClientCapabilities).extensions).toEqual({ [TASKS_EXTENSION]: {} });
    expect(discover.capabilities).not.toHaveProperty('tasks');
    const legacy = await MemoryClient.connect(app, { era: 'legacy', capabilities: caps });
    const clientInfo = { name: 'c', version: '1' };
    const init = await legacy.raw('initialize', { protocolVersion: '2025-11-25', capabilities: caps, clientInfo });
    expect('result' in init && init.result.capabilities).not.toHaveProperty('extensions');
    expect(await modern.request('tools/list')).toMatchObject({ tools: [] });
  });
});
