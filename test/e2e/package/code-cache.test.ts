/**
 * The CommonJS bundles run through dist/cjs/code-cache.js (issue 38): a start-up writes V8's bytecode
 * for each bundle it loaded into dist/cjs/.code-cache/ and the next one reuses it. A cache that is
 * missing, from another build, damaged or refused by V8 costs nothing but a compile: the app starts
 * and answers the same, and the cache is written anew. ONEMODELCONTEXT_CODE_CACHE=0 writes nothing.
 *
 * Each test runs a copy of dist/cjs (inside the repo, so packages resolve) so that other suites'
 * start-ups do not write the cache under it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');
let dir: string;
let dist: string;
let app: string;

beforeAll(() => {
  if (!existsSync(join(root, 'dist/cjs/code-cache.js'))) throw new Error('dist/ is missing: run `npm run build` (npm test does).');
  mkdirSync(join(root, 'test-output'), { recursive: true });
  dir = mkdtempSync(join(root, 'test-output', 'code-cache-'));
  dist = join(dir, 'cjs');
  cpSync(join(root, 'dist/cjs'), dist, { recursive: true, filter: (f) => !f.includes('.code-cache') });
  app = join(dir, 'app.js');
  writeFileSync(app, `
    const { IsString } = require('class-validator');
    const { decorateMethod, decorateProperty } = require(${JSON.stringify(join(root, 'bench/servers/decorate.cjs'))});
    const omc = require(${JSON.stringify(join(dist, 'index.js'))});
    class EchoArgs {}
    decorateProperty(EchoArgs, 'text', String, [IsString()]);
    class Tools { echo(args) { return 'echo:' + args.text; } }
    decorateMethod(Tools, 'echo', [EchoArgs], [omc.Tool({ description: 'echo' })]);
    void omc.serveStdio(omc.McpApplication.create({ name: 'cached', version: '1.0.0', providers: [Tools] }));`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const lines = [
  {
    jsonrpc: '2.0', id: 1, method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } },
].map((m) => JSON.stringify(m)).join('\n') + '\n';

/** One start-up: initialize, then a call (so bundle-request.js loads too); stdin then closes. */
function start(env: Record<string, string> = {}): { answers: string; stderr: string } {
  const child = spawnSync(process.execPath, [app], {
    cwd: root, input: lines, env: { ...process.env, ...env }, timeout: 60_000,
  });
  return { answers: child.stdout.toString(), stderr: child.stderr.toString() };
}

function expectServed({ answers, stderr }: { answers: string; stderr: string }): void {
  expect(stderr).not.toMatch(/Error|TypeError/);
  expect(answers).toContain('"protocolVersion"');
  expect(answers).toContain('echo:hi');
}

const cacheOf = (bundle: string) => join(dist, '.code-cache', `${bundle}.code.js.bin`);
const stamp = (file: string) => { const s = statSync(file); return `${s.ino} ${s.mtimeMs} ${s.size}`; };

test('a start-up writes each bundle it loaded; the next reuses it and writes nothing', () => {
  rmSync(join(dist, '.code-cache'), { recursive: true, force: true });
  expectServed(start());
  const written = ['bundle', 'bundle-request'].map((b) => cacheOf(b));
  for (const file of written) expect(existsSync(file)).toBe(true);
  const [main] = written as [string, string];
  expect(existsSync(cacheOf('bundle-http'))).toBe(false); // a stdio app never loads the HTTP transport
  const header = readFileSync(main).subarray(0, 200).toString('latin1').split('\n')[0];
  const buildId = /"([0-9a-f]{16})"/.exec(readFileSync(join(dist, 'bundle.js'), 'utf8'))![1];
  const code = statSync(join(dist, 'bundle.code.js'));
  // Made soon after the bundle loaded: this start-up ended before the two-second timer.
  expect(header).toBe(`${buildId} ${code.size} ${Math.trunc(code.mtimeMs)} ${process.version} ${process.arch} s`);
  const before = written.map(stamp);
  expectServed(start());
  expect(written.map(stamp)).toEqual(before); // accepted by V8: not written again
});

test('a start-up killed right after its first answers has made its cache (soon after loading, not at exit)', async () => {
  rmSync(join(dist, '.code-cache'), { recursive: true, force: true });
  const server = spawn(process.execPath, [app], { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  const seen = (text: string) => new Promise<void>((resolve) => {
    const look = () => { if (out.includes(text)) resolve(); else server.stdout.once('data', look); };
    look();
  });
  server.stdout.on('data', (chunk: Buffer) => { out += chunk.toString(); });
  const exited = new Promise((resolve) => server.once('exit', resolve));
  const [initialize, initialized, call] = lines.trim().split('\n');
  server.stdin.write(`${initialize}\n`);
  await seen('"protocolVersion"');
  // The call is read on a later turn of the server's event loop than the one that answered
  // initialize, so after the turn's setImmediate that made the cache.
  server.stdin.write(`${initialized}\n${call}\n`);
  await seen('echo:hi');
  server.kill('SIGKILL');
  await exited;
  expect(existsSync(cacheOf('bundle'))).toBe(true);
});

test('a process that lives two seconds replaces a cache made soon after loading, once; that one is kept', async () => {
  rmSync(join(dist, '.code-cache'), { recursive: true, force: true });
  expectServed(start());
  const file = cacheOf('bundle');
  const kind = () => readFileSync(file).subarray(0, 200).toString('latin1').split('\n')[0]!.slice(-1);
  expect(kind()).toBe('s');
  const server = spawn(process.execPath, [app], { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
  try {
    server.stdin.write(lines);
    const deadline = Date.now() + 60_000; // a safety net only: the loop ends when the file changes
    while (kind() !== 't' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(kind()).toBe('t');
  } finally {
    server.kill();
  }
  const kept = stamp(file);
  expectServed(start());
  expect(stamp(file)).toBe(kept);
});

test('a cache V8 refuses (its own header damaged) costs a compile: the app answers the same, the cache is made anew', () => {
  expectServed(start());
  const file = cacheOf('bundle');
  const bytes = readFileSync(file);
  const headerLength = bytes.indexOf(10) + 1;
  const damaged = Buffer.from(bytes);
  // V8's header (magic number, version and flag hashes, lengths): a release build checks these, not a checksum.
  for (let i = headerLength; i < headerLength + 32; i++) damaged[i] = damaged[i]! ^ 0x5a;
  writeFileSync(file, damaged);
  expectServed(start());
  expect(readFileSync(file).equals(damaged)).toBe(false);
  // Bytes V8 cached for other code, under this build's header, are refused by V8's own source check.
  const other = readFileSync(cacheOf('bundle-request'));
  writeFileSync(file, Buffer.concat([bytes.subarray(0, headerLength), other.subarray(other.indexOf(10) + 1)]));
  expectServed(start());
});

test('a cache from another build (its header) is ignored and replaced', () => {
  expectServed(start());
  const file = cacheOf('bundle');
  const bytes = readFileSync(file);
  const stale = Buffer.concat([Buffer.from('0000000000000000'), bytes.subarray(16)]);
  writeFileSync(file, stale);
  expectServed(start());
  expect(readFileSync(file).subarray(0, 16).toString('latin1')).not.toBe('0000000000000000');
});

test('ONEMODELCONTEXT_CODE_CACHE=0: the bundles load as plain files and nothing is written', () => {
  rmSync(join(dist, '.code-cache'), { recursive: true, force: true });
  expectServed(start({ ONEMODELCONTEXT_CODE_CACHE: '0' }));
  expect(existsSync(join(dist, '.code-cache'))).toBe(false);
});

test('where the folder cannot be made, the app starts and answers the same', () => {
  rmSync(join(dist, '.code-cache'), { recursive: true, force: true });
  writeFileSync(join(dist, '.code-cache'), 'a file where the folder would go'); // mkdir fails, even as root
  expectServed(start());
  rmSync(join(dist, '.code-cache'), { force: true });
});

test('an app bundled with the package inlined (esbuild) runs the code it inlined: the cache steps aside', async () => {
  const { build } = await import('esbuild');
  const out = join(dir, 'bundled', 'server.js');
  await build({
    entryPoints: [app], bundle: true, platform: 'node', format: 'cjs', packages: 'external', outfile: out,
    logLevel: 'silent',
  });
  const text = readFileSync(out, 'utf8');
  expect(text).toContain('bundle.code.js'); // the package's code is inside the app's file
  const child = spawnSync(process.execPath, [out], { cwd: root, input: lines, timeout: 60_000 });
  expectServed({ answers: child.stdout.toString(), stderr: child.stderr.toString() });
  expect(existsSync(join(dir, 'bundled', '.code-cache'))).toBe(false);
});
