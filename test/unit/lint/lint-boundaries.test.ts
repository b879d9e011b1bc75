/**
 * The layer rule of eslint.config.mjs (docs/architecture.md): an import that points up, or sideways
 * within a tier, is a lint error; imports down the layers pass. The fixtures are linted as if they
 * were files of src/ (they are never written there).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

interface Fixture { filePath: string; code: string }
interface Linted { filePath: string; messages: Array<{ ruleId: string | null; message: string }> }

const repo = join(__dirname, '../../..');

function lint(fixtures: Fixture[]): Linted[] {
  const stdout = execFileSync(process.execPath, [join(__dirname, 'lint-text.mjs')], {
    cwd: repo,
    input: JSON.stringify(fixtures),
    encoding: 'utf8',
  });
  return JSON.parse(stdout) as Linted[];
}

const upward: Fixture[] = [
  {
    filePath: 'src/protocol/lint-fixture.ts',
    code: "import { ContextServer } from '../server/context-server';\n\nexport const server = ContextServer;\n",
  },
  {
    filePath: 'src/config/lint-fixture.ts',
    code: "import type { ServerLogger } from '../server/core/server-logger';\n\nexport type Logger = ServerLogger;\n",
  },
  {
    filePath: 'src/registry/lint-fixture.ts',
    code: "import { KeyRing } from '../state/key-ring';\n\nexport const ring = KeyRing;\n",
  },
  {
    // Transports reach the server through its endpoint, never through the application.
    filePath: 'src/transports/lint-fixture.ts',
    code: "import { McpApplication } from '../app/application';\n\nexport const app = McpApplication;\n",
  },
  {
    filePath: 'src/context/lint-fixture.ts',
    code: "import { McpApplication } from '../index';\n\nexport const app = McpApplication;\n",
  },
];

const clean: Fixture = {
  filePath: 'src/server/lint-fixture.ts',
  code: [
    "import type { JsonObject } from '../protocol/jsonrpc';",
    "import { validateOptions } from '../config/validate-options';",
    "import { ContextServer } from './context-server';",
    '',
    'export const parts: [JsonObject, unknown, unknown] = [{}, validateOptions, ContextServer];',
    '',
  ].join('\n'),
};

describe('lint: layer boundaries', () => {
  let results: Linted[];
  beforeAll(() => {
    results = lint([...upward, clean]);
  });

  test.each(upward.map((f, i) => [f.filePath, i] as const))('an upward import in %s is an error', (_, i) => {
    const { messages } = results[i]!;
    expect(messages.map((m) => m.ruleId)).toEqual(['boundaries/dependencies']);
  });

  test('the message names both layers', () => {
    expect(results[0]!.messages[0]!.message).toMatch(/"server".*"protocol"/);
  });

  test('imports down the layers pass every rule', () => {
    expect(results[upward.length]!.messages).toEqual([]);
  });
});
