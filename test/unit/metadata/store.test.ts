/**
 * The metadata store: entries per class under global symbols, inherited, a subclass's own entry for a method
 * winning.
 */
import { MetadataKeys } from '../../../src/metadata/keys';
import { MetadataStore } from '../../../src/metadata/store';

test('keys are global symbols, so two copies of the package read the same metadata', () => {
  expect(MetadataKeys.tools).toBe(Symbol.for('onemodelcontext:tools'));
  expect(Object.isFrozen(MetadataKeys)).toBe(true);
});

test('a subclass inherits its parent entries; its own entry for the same method replaces the parent one', () => {
  class Base {}
  class Child extends Base {}
  MetadataStore.addTool(Base.prototype, { method: 'a', options: { description: 'base a' } });
  MetadataStore.addTool(Base.prototype, { method: 'b', options: { description: 'base b' } });
  MetadataStore.addTool(Child.prototype, { method: 'a', options: { description: 'child a' } });
  expect(MetadataStore.tools(Child).map((e) => e.options.description).sort()).toEqual(['base b', 'child a']);
  expect(MetadataStore.tools(Base).map((e) => e.options.description)).toEqual(['base a', 'base b']);
});

test('entries of one class come back in order, a method\'s entries together, and as a copy', () => {
  class Own {}
  MetadataStore.addTool(Own.prototype, { method: 'a', options: { description: 'a1' } });
  MetadataStore.addTool(Own.prototype, { method: 'b', options: { description: 'b1' } });
  MetadataStore.addTool(Own.prototype, { method: 'a', options: { description: 'a2' } });
  expect(MetadataStore.tools(Own).map((e) => e.options.description)).toEqual(['a1', 'a2', 'b1']);
  class OneEach {}
  MetadataStore.addTool(OneEach.prototype, { method: 'x', options: { description: 'x' } });
  MetadataStore.addTool(OneEach.prototype, { method: 'y', options: { description: 'y' } });
  const first = MetadataStore.tools(OneEach);
  expect(first.map((e) => e.options.description)).toEqual(['x', 'y']);
  first.pop();
  expect(MetadataStore.tools(OneEach)).toHaveLength(2);
});

test('kinds are kept apart', () => {
  class Mixed {}
  MetadataStore.addPrompt(Mixed.prototype, { method: 'p', options: {} });
  expect(MetadataStore.tools(Mixed)).toEqual([]);
  expect(MetadataStore.prompts(Mixed)).toHaveLength(1);
});

test('without reflect-metadata the store says what to add', () => {
  const saved = (Reflect as { getMetadata?: unknown }).getMetadata;
  delete (Reflect as { getMetadata?: unknown }).getMetadata;
  try {
    expect(() => MetadataStore.tools(class {})).toThrow(/import 'reflect-metadata'/);
  } finally {
    (Reflect as { getMetadata?: unknown }).getMetadata = saved;
  }
});
