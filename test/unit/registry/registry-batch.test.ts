/** Registry.batch: a sync of many items announces each changed list once, at its end (issue 38: a bridge
 * mounting 5 000 tools). */
import { Registry, type RegistryEvent } from '../../../src/registry/registry';

const tool = (name: string) => ({ kind: 'tool', name, owner: `test ${name}` }) as never;
const prompt = (name: string) => ({ kind: 'prompt', name, owner: `test ${name}` }) as never;

function heard(registry: Registry) {
  const events: RegistryEvent[] = [];
  registry.subscribe((e) => events.push(e));
  registry.onLocalChange((e) => events.push({ ...e, local: true } as never));
  return events;
}

test('inside batch, 1 000 adds and a removal announce tools once and prompts once, after the batch', () => {
  const registry = new Registry();
  const events = heard(registry);
  const during: number[] = [];
  registry.batch(() => {
    for (let i = 0; i < 1000; i++) registry.addTool(tool(`t${i}`));
    registry.addPrompt(prompt('p'));
    registry.removeTool('t0');
    during.push(events.length);
    registry.batch(() => registry.addTool(tool('nested'))); // a nested batch joins the outer one
    during.push(events.length);
  });
  expect(during).toEqual([0, 0]);
  expect(events).toEqual([
    { type: 'listChanged', list: 'tools' },
    { type: 'listChanged', list: 'tools', local: true },
    { type: 'listChanged', list: 'prompts' },
    { type: 'listChanged', list: 'prompts', local: true },
  ]);
  expect(registry.listTools()).toHaveLength(1000); // 1 000 added, t0 removed, nested added
});

test('a batch that throws still announces what it changed, and later changes are announced at once again', () => {
  const registry = new Registry();
  const events = heard(registry);
  expect(() =>
    registry.batch(() => {
      registry.addTool(tool('a'));
      registry.addTool(tool('a')); // duplicate: throws
    }),
  ).toThrow(/Duplicate tool/);
  expect(events.filter((e) => !(e as { local?: boolean }).local)).toEqual([{ type: 'listChanged', list: 'tools' }]);
  registry.addTool(tool('b'));
  expect(events.filter((e) => !(e as { local?: boolean }).local)).toHaveLength(2);
});
