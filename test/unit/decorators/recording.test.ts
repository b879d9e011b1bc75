/** The decorators only record metadata: frozen copies of their options, per method, nothing run. */
import { Complete, Prompt, Resource, ResourceTemplate, Tool } from '../../../src';
import { MetadataStore } from '../../../src/metadata/store';

test('each decorator records its method and a frozen copy of its options', () => {
  const options = { description: 'adds' };
  class Calc {
    @Tool(options) add() {}
    @Prompt({ description: 'p' }) greet() {}
    @Resource({ uri: 'calc://about' }) about() {}
    @ResourceTemplate({ uriTemplate: 'calc://n/{n}' }) number() {}
    @Complete({ prompt: 'greet', argument: 'name' }) names() {}
  }
  const [tool] = MetadataStore.tools(Calc);
  expect(tool).toEqual({ method: 'add', options: { description: 'adds' } });
  expect(Object.isFrozen(tool!.options)).toBe(true);
  options.description = 'changed later';
  expect(MetadataStore.tools(Calc)[0]!.options.description).toBe('adds');
  expect(MetadataStore.prompts(Calc).map((e) => e.method)).toEqual(['greet']);
  expect(MetadataStore.resources(Calc)[0]!.options).toEqual({ uri: 'calc://about' });
  expect(MetadataStore.resourceTemplates(Calc)[0]!.method).toBe('number');
  expect(MetadataStore.completions(Calc)[0]!.method).toBe('names');
});

test('decorating runs nothing of the class and leaves the method as written', () => {
  let constructed = 0;
  class Plain {
    constructor() {
      constructed++;
    }
    @Tool() hello() {
      return 'hi';
    }
  }
  expect(constructed).toBe(0);
  expect(new Plain().hello()).toBe('hi');
});

test('a symbol-named method is not recorded (MCP names are strings)', () => {
  const name = Symbol('hidden');
  class WithSymbol {
    @Tool() [name]() {}
  }
  expect(MetadataStore.tools(WithSymbol)).toEqual([]);
});
