/**
 * The edge example's ESM build under Node: arguments are checked through the Ajv fast path (loaded
 * by the ESM build's lazy require), and under --disallow-code-generation-from-strings the first
 * compile is refused, the app logs why, and class-validator plus the interpreting validator take over.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const root = join(__dirname, '..', '..', '..');

beforeAll(() => {
  if (!existsSync(join(root, 'dist/esm/web.js'))) throw new Error('dist/ is missing: run `npm run build` (npm test does).');
  execFileSync(process.execPath, ['scripts/build-edge.mjs'], { cwd: root, stdio: 'pipe' });
}, 120_000);

function call(name: unknown, flags: string[] = []) {
  const run = spawnSync(process.execPath, [...flags, 'test/edge/call-node.mjs', JSON.stringify(name)], { cwd: root });
  expect(run.status).toBe(0);
  type Reply = { result: { content: Array<{ text: string }>; isError?: boolean } };
  const reply = JSON.parse(run.stdout.toString()) as Reply;
  return { result: reply.result, stderr: run.stderr.toString() };
}

test.each([[[]], [['--disallow-code-generation-from-strings']]])('valid and invalid arguments (node flags %j)', (flags) => {
  const ok = call('Ada', flags);
  expect(ok.result.content[0]!.text).toBe('Hello, Ada!');
  const bad = call(42, flags);
  expect(bad.result.isError).toBe(true);
  expect(bad.result.content[0]!.text).toMatch(/name must be a string/);
  const refused = /validation: this runtime forbids code generation \(EvalError: [^)]+\)/;
  // A flat DTO is checked without Ajv (schema/flat-schema-check.ts): no code is generated, so the
  // switch is never needed. Where Ajv is reached, the switch is logged once with its reason.
  if (flags.length === 0) expect(ok.stderr).not.toMatch(refused);
  expect(ok.stderr).not.toMatch(/OMC_SCHEMA_UNSUPPORTED|EvalError: Code generation/);
});

/** The `node:` built-ins `onemodelcontext/web` imports statically, through every chunk it loads (docs/transports.md) */
test('the web entry imports only the Node built-ins docs/transports.md names', () => {
  const builtins = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    // Static imports only (`import … from "x"`, `import "x"`, `export … from "x"`): import() loads when used.
    for (const m of text.matchAll(/^\s*(?:import|export)\s+(?:[^'"();]*?\s+from\s+)?["']([^"']+)["'];?$/gm)) {
      const spec = m[1]!;
      if (spec.startsWith('.')) visit(resolve(dirname(file), spec));
      else if (spec.startsWith('node:')) builtins.add(spec);
      else expect(['http', 'https', 'net', 'fs', 'path', 'child_process', 'tls']).not.toContain(spec);
    }
  };
  visit(join(root, 'dist/esm/web.js'));
  expect(seen.size).toBeGreaterThan(1);
  expect([...builtins].sort()).toEqual(['node:async_hooks', 'node:crypto', 'node:fs', 'node:path', 'node:util']);
});
