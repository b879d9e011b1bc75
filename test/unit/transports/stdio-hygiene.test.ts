/**
 * stdio hygiene: every console method that prints goes to stderr (stdout carries only MCP
 * messages), and a frame with invalid UTF-8 is a parse error — the server keeps serving.
 */
import { PassThrough } from 'node:stream';
import { ContextServerModule, McpApplication, serveStdio, Tool } from '../../../src';
import { silentLogger } from '../../../src/server/core/server-logger';

class Echo {
  @Tool({ description: 'Echoes' })
  echo() {
    return 'é ok';
  }
}

const app = () =>
  McpApplication.create({
    name: 'stdio-hygiene',
    version: '1.0.0',
    providers: [Echo],
    modules: [ContextServerModule.configure({ logger: silentLogger })],
  });

test('every console method that prints writes to stderr, none to stdout', async () => {
  const saved = { ...console };
  const stdout = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
  const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  const input = new PassThrough();
  try {
    const handle = await serveStdio(app(), { input });
    console.log('log-line');
    console.info('info-line');
    console.debug('debug-line');
    console.dir({ dir: 'dir-line' });
    console.dirxml('dirxml-line');
    console.table([{ table: 'table-line' }]);
    console.group('group-line');
    console.log('inside-group');
    console.groupEnd();
    console.count('count-line');
    console.time('time-line');
    console.timeLog('time-line');
    console.timeEnd('time-line');
    console.trace('trace-line');
    console.assert(false, 'assert-line');
    console.warn('warn-line');
    console.error('error-line');
    input.end();
    await handle.closed;
    const printed = stderr.mock.calls.map((c) => String(c[0])).join('');
    for (const word of [
      'log',
      'info',
      'debug',
      'dir',
      'dirxml',
      'table',
      'group',
      'count',
      'time',
      'trace',
      'assert',
      'warn',
      'error',
    ]) {
      expect(printed).toContain(`${word}-line`);
    }
    expect(printed).toMatch(/ {2}inside-group/); // group indentation still applies
    expect(stdout).not.toHaveBeenCalled();
  } finally {
    Object.assign(console, saved);
    stdout.mockRestore();
    stderr.mockRestore();
  }
});

test('the stderr Console is made by the first print, and a method replaced after serveStdio stays replaced', async () => {
  const saved = { ...console };
  const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  const input = new PassThrough();
  try {
    const handle = await serveStdio(app(), { input });
    const mine = jest.fn();
    console.warn = mine;
    const log = console.log;
    console.log('first');
    expect(console.log).not.toBe(log); // the first print put the Console's own method in place
    console.log('second');
    console.warn('to mine');
    expect(mine).toHaveBeenCalledWith('to mine');
    const printed = stderr.mock.calls.map((c) => String(c[0])).join('');
    expect(printed).toContain('first');
    expect(printed).toContain('second');
    expect(printed).not.toContain('to mine');
    input.end();
    await handle.closed;
  } finally {
    Object.assign(console, saved);
    stderr.mockRestore();
  }
});

test('a frame with invalid UTF-8 is a parse error (no U+FFFD reaches a tool) and the next call is served', async () => {
  const input = new PassThrough();
  const output = new PassThrough();
  let written = '';
  output.on('data', (d: Buffer) => (written += d.toString()));
  const handle = await serveStdio(app(), { input, output });
  const call = (id: number) =>
    JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: {
        name: 'echo',
        arguments: {},
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    });
  const bad = Buffer.from(call(1));
  bad[bad.indexOf('echo')] = 0xff; // the method name's bytes are no longer UTF-8
  input.write(Buffer.concat([bad, Buffer.from('\n')]));
  input.write(call(2) + '\n');
  input.end();
  await handle.closed;
  const lines = written.trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>);
  expect(lines[0]!.error).toMatchObject({ code: -32700, message: expect.stringContaining('not valid UTF-8') });
  expect(lines[0]!.id ?? null).toBeNull();
  expect(lines[1]).toMatchObject({ id: 2, result: { content: [{ type: 'text', text: 'é ok' }] } });
  expect(written).not.toContain('\uFFFD');
});
