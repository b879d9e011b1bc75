/** The telemetry options are validated like every options class; a pino-shaped logger is called object first. */
import pino from 'pino';
import { resolveServerOptions } from '../../../src/server/core/server-options';
import { toServerLogger, type ServerLogger } from '../../../src/server/core/server-logger';
import { MemoryClient, Tool } from '../../../src';
import { makeApp } from '../../helpers/apps';

test('telemetry options: defaults, frozen, unknown keys and wrong types refused', () => {
  const options = resolveServerOptions({});
  expect(options.telemetry).toMatchObject({ traces: true, metrics: true, resourceUri: false, accessLog: false });
  expect(Object.isFrozen(options.telemetry)).toBe(true);
  expect(() => resolveServerOptions({ telemetry: { trace: false } })).toThrow(/telemetry\.trace/);
  expect(() => resolveServerOptions({ telemetry: { accessLog: 'yes' } })).toThrow(/accessLog/);
  expect(() => resolveServerOptions({ telemetry: 'on' })).toThrow(/telemetry/);
});

test('a pino logger is adapted: object first, message second, levels kept', () => {
  const lines: Record<string, unknown>[] = [];
  const logger = toServerLogger(pino({ level: 'info' }, { write: (l: string) => lines.push(JSON.parse(l)) }));
  logger.warn('requestState refused', { reason: 'expired' });
  logger.error('internal error in tools/call');
  logger.info?.('mcp request', { method: 'tools/call' });
  expect(lines).toEqual([
    expect.objectContaining({ level: 40, msg: 'requestState refused', reason: 'expired' }),
    expect.objectContaining({ level: 50, msg: 'internal error in tools/call' }),
    expect.objectContaining({ level: 30, msg: 'mcp request', method: 'tools/call' }),
  ]);
});

test('a logger of our own shape is used as it is', () => {
  const ours: ServerLogger = { warn: () => undefined, error: () => undefined };
  expect(toServerLogger(ours)).toBe(ours);
});

test('a logger that throws on the access log line does not cost the client its answer', async () => {
  class Echo {
    @Tool({ description: 'Echo' })
    echo() {
      return 'hi';
    }
  }
  const throwing = {
    warn: () => undefined,
    error: () => undefined,
    info: () => {
      throw new Error('disk full');
    },
  };
  const app = makeApp([Echo], { logger: throwing, telemetry: { accessLog: true } });
  const client = await MemoryClient.connect(app, { era: 'modern' });
  expect(await client.request('tools/call', { name: 'echo', arguments: {} })).toMatchObject({
    content: [{ type: 'text', text: 'hi' }],
  });
});
