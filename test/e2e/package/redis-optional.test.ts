/**
 * Issue 33: `redis` is an optional peer. An app without it imports `onemodelcontext/redis` (CommonJS
 * and ESM) and keeps running; its first connection fails with the command to run, not a bare
 * "Cannot find module". The app is laid out as npm would install it, without redis.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const repo = join(__dirname, '..', '..', '..');
let app: string;

beforeAll(() => {
  if (!existsSync(join(repo, 'dist', 'cjs', 'index.js')))
    throw new Error('dist/ is missing: run `npm run build` (npm test does).');
  app = mkdtempSync(join(tmpdir(), 'omc-no-redis-'));
  const modules = join(app, 'node_modules');
  const pkg = join(modules, 'onemodelcontext');
  mkdirSync(pkg, { recursive: true });
  cpSync(join(repo, 'package.json'), join(pkg, 'package.json'));
  cpSync(join(repo, 'dist'), join(pkg, 'dist'), { recursive: true });
  for (const entry of readdirSync(join(repo, 'node_modules'))) {
    if (!entry.startsWith('.') && entry !== 'redis' && entry !== '@redis' && entry !== 'onemodelcontext')
      symlinkSync(join(repo, 'node_modules', entry), join(modules, entry), 'dir');
  }
});
afterAll(() => rmSync(app, { recursive: true, force: true }));

const INSTALL_HINT = 'onemodelcontext/redis needs the `redis` package (node-redis 6, an optional peer dependency): npm install redis@6';

test.each([
  [
    'CommonJS',
    'app.cjs',
    `const redis = require('onemodelcontext/redis');
     redis.connectRedis({ url: 'redis://127.0.0.1:1' }).then(
       () => console.log('connected?!'),
       (error) => console.log(JSON.stringify({ imported: typeof redis.RedisModule, message: error.message })),
     ).then(() => console.log('still running'));`,
  ],
  [
    'ESM, a caught import()',
    'app.mjs',
    `let imported = 'no';
     try {
       const redis = await import('onemodelcontext/redis');
       imported = typeof redis.RedisModule;
       await redis.connectRedis({ url: 'redis://127.0.0.1:1' });
     } catch (error) {
       console.log(JSON.stringify({ imported, message: error.message }));
     }
     console.log('still running');`,
  ],
])('%s: onemodelcontext/redis loads without redis; connecting names the command to run', (_, file, source) => {
  expect(existsSync(join(app, 'node_modules', 'redis'))).toBe(false);
  writeFileSync(join(app, file), source);
  const lines = execFileSync(process.execPath, [file], { cwd: app, encoding: 'utf8' }).trim().split('\n');
  expect(JSON.parse(lines[0]!)).toEqual({ imported: 'function', message: INSTALL_HINT });
  expect(lines[1]).toBe('still running');
});
