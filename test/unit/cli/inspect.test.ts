import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspectorInvocation, runInspector, shellWord } from '../../../src/cli/inspect';
import { CliError } from '../../../src/cli/output';

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
let project: string;
beforeEach(() => {
  project = mkdtempSync(join(tmpdir(), 'omc-inspect-'));
  mkdirSync(join(project, 'dist'));
  writeFileSync(join(project, 'dist', 'main.js'), '');
});
afterEach(() => rmSync(project, { recursive: true, force: true }));

describe('inspectorInvocation', () => {
  test('stdio: the Inspector starts the built entry with node', () => {
    expect(inspectorInvocation({ entry: 'dist/main.js' }, project)).toEqual({
      command: npx,
      args: ['-y', '@modelcontextprotocol/inspector', 'node', join(project, 'dist', 'main.js')],
    });
  });

  test('HTTP: the Inspector connects to the running server', () => {
    expect(inspectorInvocation({ entry: 'dist/main.js', url: 'http://127.0.0.1:3000/mcp' }, project)).toEqual({
      command: npx,
      args: [
        '-y',
        '@modelcontextprotocol/inspector',
        '--transport',
        'http',
        '--server-url',
        'http://127.0.0.1:3000/mcp',
      ],
    });
  });

  test('an entry that is not built, and a URL that is not http, are user errors', () => {
    expect(() => inspectorInvocation({ entry: 'out/server.js' }, project)).toThrow(CliError);
    expect(() => inspectorInvocation({ entry: 'out/server.js' }, project)).toThrow(/not found: build first/);
    expect(() => inspectorInvocation({ entry: 'dist/main.js', url: 'localhost:3000' }, project)).toThrow(
      /must be http/,
    );
    expect(() => inspectorInvocation({ entry: 'dist/main.js', url: 'not a url' }, project)).toThrow(/is not a URL/);
  });
});

test('--print shows the command and runs nothing', async () => {
  const lines: string[] = [];
  const code = await runInspector(
    { command: 'inspect', entry: 'dist/main.js', url: 'http://127.0.0.1:3000/mcp', print: true },
    project,
    {
      info: (l) => lines.push(l),
      error: (l) => lines.push(l),
    },
  );
  expect(code).toBe(0);
  expect(lines).toEqual([
    `${npx} -y @modelcontextprotocol/inspector --transport http --server-url http://127.0.0.1:3000/mcp`,
  ]);
});

test('shellWord quotes only what needs it', () => {
  expect(shellWord('/srv/app/dist/main.js')).toBe('/srv/app/dist/main.js');
  expect(shellWord('/my app/main.js')).toBe("'/my app/main.js'");
  expect(shellWord("it's")).toBe("'it'\\''s'");
});
