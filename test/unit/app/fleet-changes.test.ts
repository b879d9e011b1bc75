/**
 * Run-time changes with a fleet bus (an in-process bus shared by two apps stands in for Redis):
 * a direct addTool is refused naming the alternative; a named change applies on every app, once,
 * and an app created later replays it.
 */
import 'reflect-metadata';
import { McpApplication } from '../../../src';
import { FrameworkError } from '../../../src/errors/framework-error';
import { InProcessNotificationBus } from '../../../src/server/fleet/notification-bus';
import { SHARED_STORES, type SharedStores } from '../../../src/server/fleet/shared-stores';

function instance(bus: InProcessNotificationBus): { app: McpApplication; applied: string[] } {
  const shared: SharedStores = { notificationBus: bus, ready: async () => undefined, close: async () => undefined };
  const app = McpApplication.create({
    name: 'fleet-changes',
    version: '1.0.0',
    providers: [{ provide: SHARED_STORES, useValue: shared }],
  });
  const applied: string[] = [];
  app.registerChange<{ label: string }>('add-greeter', ({ label }) => {
    applied.push(label);
    app.addTool({ name: `greet_${label}`, handler: () => `hello from ${label}` });
  });
  return { app, applied };
}

// The live list (what tools/list serves), read from the app's registry.
const toolNames = (app: McpApplication): string[] =>
  (app as unknown as { registry: { listTools(): Array<{ name: string }> } }).registry.listTools().map((t) => t.name);

test('a direct addTool in a fleet is refused, naming registerChange and applyChange', () => {
  const { app } = instance(new InProcessNotificationBus());
  let error: unknown;
  try {
    app.addTool({ name: 'closure_tool', handler: () => 'x' });
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(FrameworkError);
  expect((error as FrameworkError).code).toBe('OMC_FLEET_CHANGE_REFUSED');
  expect((error as Error).message).toMatch(/registerChange.*applyChange/s);
  expect(() => app.removeTool('anything')).toThrow(/removeTool changes this instance only/);
});

test('a named change applies on every instance once, and one created later replays it', async () => {
  const bus = new InProcessNotificationBus();
  const a = instance(bus);
  const b = instance(bus);
  await Promise.all([a.app.endpoint.settings.ready(), b.app.endpoint.settings.ready()]);
  await a.app.applyChange('add-greeter', { label: 'one' });
  expect(toolNames(a.app)).toContain('greet_one'); // applied on the caller before applyChange resolves
  expect(toolNames(b.app)).toContain('greet_one');
  expect(a.applied).toEqual(['one']);
  expect(b.applied).toEqual(['one']);

  const late = instance(bus);
  await late.app.endpoint.settings.ready();
  expect(late.applied).toEqual(['one']);
  expect(toolNames(late.app)).toContain('greet_one');
  await Promise.all([a.app.close(), b.app.close(), late.app.close()]);
});

test('an unregistered change name is refused; without a bus a change applies at once', async () => {
  const app = McpApplication.create({ name: 'solo', version: '1.0.0', providers: [] });
  await expect(app.applyChange('nobody-registered-this')).rejects.toThrow(/not registered/);
  app.registerChange('add', () => app.addTool({ name: 'solo_tool', handler: () => 'ok' }));
  await app.applyChange('add');
  expect(toolNames(app)).toContain('solo_tool');
  app.addTool({ name: 'direct_tool', handler: () => 'ok' }); // one process: direct changes stay allowed
});

test('registerChange returns what unregisters it; a framework change nobody here registered is skipped quietly', async () => {
  const bus = new InProcessNotificationBus();
  const a = instance(bus);
  const b = instance(bus);
  await Promise.all([a.app.endpoint.settings.ready(), b.app.endpoint.settings.ready()]);
  const heard: unknown[] = [];
  const unregister = a.app.registerChange('onemodelcontext.bridge.relist:up', (lists) => heard.push(lists));
  // b has no such mount: it skips the change (no warning), a applies it.
  const warned = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    await a.app.applyChange('onemodelcontext.bridge.relist:up', ['tools']);
    expect(warned.mock.calls.map(String).join('')).not.toMatch(/run-time change failed/);
  } finally {
    warned.mockRestore();
  }
  expect(heard).toEqual([['tools']]);
  unregister();
  await expect(a.app.applyChange('onemodelcontext.bridge.relist:up')).rejects.toThrow(/not registered/);
  expect(a.app.registerChange('onemodelcontext.bridge.relist:up', () => undefined)).toBeInstanceOf(Function);
  await Promise.all([a.app.close(), b.app.close()]);
});
