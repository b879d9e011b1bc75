import { addImport, matchingBracket, ProviderEditError, registerProvider } from '../../../src/cli/register-provider';

const edit = { className: 'WeatherTool', from: './weather.tool' };

const generated = `/** The application. */
import 'reflect-metadata';
import { ContextServerModule, McpApplication } from 'onemodelcontext';
import { HelloTool } from './hello.tool';

export function createApp(): McpApplication {
  return McpApplication.create({
    name: 'x',
    version: '0.1.0',
    providers: [HelloTool],
    modules: [ContextServerModule.configure({})],
  });
}
`;

describe('registerProvider', () => {
  test('the generated app: import after the last import, class appended on the same line', () => {
    const out = registerProvider(generated, edit);
    expect(out).toContain("import { HelloTool } from './hello.tool';\nimport { WeatherTool } from './weather.tool';\n");
    expect(out).toContain('providers: [HelloTool, WeatherTool],');
    expect(out.replace("import { WeatherTool } from './weather.tool';\n", '').replace(', WeatherTool', '')).toBe(
      generated,
    );
  });

  test('an empty array', () => {
    expect(registerProvider("import 'x';\nconst a = { providers: [] };\n", edit)).toBe(
      "import 'x';\nimport { WeatherTool } from './weather.tool';\nconst a = { providers: [WeatherTool] };\n",
    );
  });

  test('one item per line keeps the layout, with or without a trailing comma, past comments', () => {
    const multi = `const a = {\n  providers: [\n    A,\n    B, // the b\n  ],\n};\n`;
    expect(registerProvider(multi, edit)).toContain(`providers: [\n    A,\n    B, // the b\n    WeatherTool,\n  ],`);
    const noTrailing = `const a = {\n  providers: [\n    A,\n    B // the b\n  ],\n};\n`;
    expect(registerProvider(noTrailing, edit)).toContain(
      `providers: [\n    A,\n    B, // the b\n    WeatherTool,\n  ],`,
    );
  });

  test('nested brackets, strings and comments inside the array are skipped', () => {
    const tricky = `const x = { providers: [A, { provide: 'a]b', useValue: [1, 2] } /* ] */, \`\${[3]}\`] };\n`;
    expect(registerProvider(tricky, edit)).toContain('/* ] */, `${[3]}`, WeatherTool] };');
  });

  test('multi-line imports are recognised', () => {
    const src = `import {\n  A,\n  B,\n} from 'lib';\n\nconst x = { providers: [A] };\n`;
    expect(registerProvider(src, edit)).toBe(
      `import {\n  A,\n  B,\n} from 'lib';\nimport { WeatherTool } from './weather.tool';\n\nconst x = { providers: [A, WeatherTool] };\n`,
    );
  });

  test('no import yet: the import goes first', () => {
    expect(addImport('const a = 1;\n', "import { A } from './a';")).toBe("import { A } from './a';\nconst a = 1;\n");
  });

  test.each([
    ['no providers array', 'const a = {};', /Could not find `providers: \[`.*by hand/],
    ['two arrays', 'const a = { providers: [] }; const b = { providers: [] };', /Found 2/],
    ['unclosed', 'const a = { providers: [A, B', /not closed/],
    ['already registered', 'const a = { providers: [HelloTool, WeatherTool] };', /already in the providers array/],
    ['a spread built elsewhere', 'const a = { providers: [...list, WeatherTool] };', /already/],
  ])('%s → a clear error', (_, source, message) => {
    expect(() => registerProvider(source, edit)).toThrow(ProviderEditError);
    expect(() => registerProvider(source, edit)).toThrow(message);
  });

  test('a name that merely contains the class name is not "already registered"', () => {
    expect(registerProvider('const a = { providers: [WeatherToolkit] };', edit)).toContain(
      '[WeatherToolkit, WeatherTool]',
    );
  });

  test('matchingBracket refuses a mismatched closer', () => {
    expect(matchingBracket('[a)', 0)).toBeUndefined();
    expect(matchingBracket('[a, (b), [c]]', 0)).toBe(12);
  });
});
