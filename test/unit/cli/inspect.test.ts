import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspectorInvocation, inspectorSpec, runInspector, shellWord } from '../../../src/cli/inspect';
import { CliError } from '../../../src/cli/output';

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
/** The Inspector our docs tests run: its exact version from our devDependencies. */
const pinned = `@modelcontextprotocol/inspector@${
  (require('../../../package.json') as { devDependencies: Record<string, string> }).devDependencies[
    '@modelcontextprotocol/inspector'
  ]
}`;
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
      args: ['-y', pinned, 'node', join(project, 'dist', 'main.js')],
    });
  });

  test('HTTP: the Inspector connects to the running server', () => {
    expect(inspectorInvocation({ entry: 'dist/main.js', url: 'http://127.0.0.1:3000/mcp' }, project)).toEqual({
      command: npx,
      args: [
        '-y',
        pinned,
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
    `${npx} -y ${pinned} --transport http --server-url http://127.0.0.1:3000/mcp`,
  ]);
});

test('the Inspector is pinned to the exact version our tests run', () => {
  expect(pinned).toMatch(/^@modelcontextprotocol\/inspector@\d+\.\d+\.\d+$/);
  expect(inspectorSpec()).toBe(pinned);
});

test('--print in an HTTP project made by create prints the HTTP command, not a stdio one', async () => {
  const scripts = { inspect: 'onemodelcontext inspect --url http://127.0.0.1:3000/mcp' };
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'http-desk', scripts }));
  const lines: string[] = [];
  const out = { info: (l: string) => lines.push(l), error: (l: string) => lines.push(l) };
  expect(await runInspector({ command: 'inspect', entry: 'dist/main.js', print: true }, project, out)).toBe(0);
  expect(lines).toEqual([`${npx} -y ${pinned} --transport http --server-url http://127.0.0.1:3000/mcp`]);
  // A stdio project's script names no URL: the Inspector starts the entry.
  writeFileSync(join(project, 'package.json'), JSON.stringify({ scripts: { inspect: 'npm run build && onemodelcontext inspect' } }));
  lines.length = 0;
  await runInspector({ command: 'inspect', entry: 'dist/main.js', print: true }, project, out);
  expect(lines).toEqual([`${npx} -y ${pinned} node ${join(project, 'dist', 'main.js')}`]);
});

test('shellWord quotes only what needs it', () => {
  expect(shellWord('/srv/app/dist/main.js')).toBe('/srv/app/dist/main.js');
  expect(shellWord('/my app/main.js')).toBe("'/my app/main.js'");
  expect(shellWord("it's")).toBe("'it'\\''s'");
});
