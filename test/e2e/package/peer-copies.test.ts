/**
 * Issue 13, peer dependencies: an app with its own copies of reflect-metadata, class-validator,
 * class-transformer and tsyringe shares them with the framework (they are peers, so the framework
 * resolves the app's copy), and a second copy loaded beside the app's stops start-up with an error
 * that names it. The app is laid out as npm would install it, from the built package.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const repo = join(__dirname, '..', '..', '..');
const manifest = require(join(repo, 'package.json')) as {
  peerDependencies: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
};
/** The required peers (optional ones, like redis for the Redis store, are not shared with every app). */
const PEERS = Object.keys(manifest.peerDependencies).filter((p) => !manifest.peerDependenciesMeta?.[p]?.optional);
let app: string;

beforeAll(() => {
  if (!existsSync(join(repo, 'dist', 'cjs', 'index.js'))) throw new Error('dist/ is missing: run `npm run build` (npm test does).');
  app = mkdtempSync(join(tmpdir(), 'omc-peers-'));
  const modules = join(app, 'node_modules');
  const pkg = join(modules, 'onemodelcontext');
  mkdirSync(pkg, { recursive: true });
  cpSync(join(repo, 'package.json'), join(pkg, 'package.json'));
  cpSync(join(repo, 'dist'), join(pkg, 'dist'), { recursive: true });
  // The app's own copies (real folders, not links to ours); everything else (the framework's
  // dependencies, the peers' own dependencies) is linked from ours.
  for (const peer of PEERS)
    cpSync(join(repo, 'node_modules', peer), join(modules, peer), { recursive: true, dereference: true });
  for (const entry of readdirSync(join(repo, 'node_modules'))) {
    if (!entry.startsWith('.') && !PEERS.includes(entry))
      symlinkSync(join(repo, 'node_modules', entry), join(modules, entry), 'dir');
  }
});
afterAll(() => rmSync(app, { recursive: true, force: true }));

test('the peer libraries are peerDependencies with caret ranges', () => {
  expect(PEERS.sort()).toEqual(['class-transformer', 'class-validator', 'reflect-metadata', 'tsyringe']);
  for (const peer of PEERS) expect(manifest.peerDependencies[peer]).toMatch(/^\^\d/);
});

const START = `
require('reflect-metadata');
const { container } = require('tsyringe');
const { McpApplication } = require('onemodelcontext');
const path = require('node:path');
const peers = ${JSON.stringify(PEERS)};
const fromFramework = path.dirname(require.resolve('onemodelcontext'));
const same = peers.every((p) => require.resolve(p) === require.resolve(p, { paths: [fromFramework] }));
try {
  McpApplication.create({ name: 'peers', version: '1.0.0', providers: [] });
  console.log(JSON.stringify({ same, started: true }));
} catch (error) {
  console.log(JSON.stringify({ same, started: false, code: error.code, message: error.message }));
}
`;

function start(): { same: boolean; started: boolean; code?: string; message?: string } {
  return JSON.parse(execFileSync(process.execPath, ['-e', START], { cwd: app, encoding: 'utf8' })) as never;
}

test("one copy of each: the framework uses the app's, and the app starts", () => {
  expect(start()).toEqual({ same: true, started: true });
});

test('a second tsyringe under the framework: start-up names the problem and both folders', () => {
  const nested = join(app, 'node_modules', 'onemodelcontext', 'node_modules', 'tsyringe');
  cpSync(join(app, 'node_modules', 'tsyringe'), nested, { recursive: true });
  try {
    const result = start();
    expect(result).toMatchObject({ same: false, started: false, code: 'OMC_DUPLICATE_LIBRARY' });
    expect(result.message).toContain('2 copies of tsyringe are loaded');
    expect(result.message).toContain(nested);
    expect(result.message).toContain(join(app, 'node_modules', 'tsyringe'));
  } finally {
    rmSync(join(app, 'node_modules', 'onemodelcontext', 'node_modules'), { recursive: true, force: true });
  }
});
