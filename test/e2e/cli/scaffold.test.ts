/**
 * The whole user path, for real: pack this package from a fresh copy (prepack builds), scaffold a
 * project with `create --from <tarball>` (which installs it), type-check, run the generated tests,
 * `onemodelcontext add tool Weather` and `add resource-template Book` through the installed bin, run
 * the tests again, and talk to the built server over stdio; `onemodelcontext dev` on an HTTP app;
 * then the same app again under TypeScript 7. Slow (npm install): minutes, not seconds.
 */
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ContextClient } from '../../../src';
import { TYPESCRIPT_7_VERSION } from '../../helpers/compilers';
import { freePort } from '../../helpers/free-port';

const repo = join(__dirname, '..', '..', '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const MINUTES = 60_000;

let work: string;
let project: string;
let tarball: string;

function run(command: string, args: string[], cwd: string): string {
  try {
    return execFileSync(command, args, {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, CI: 'true' },
    });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `${command} ${args.join(' ')} failed in ${cwd}:\n${e.stdout ?? ''}\n${e.stderr ?? ''}\n${e.message}`,
    );
  }
}

/** Runs the project's jest with a JSON report and returns the passed test names. */
function passedTests(cwd: string): string[] {
  const report = join(work, `jest-${Date.now()}.json`);
  run(npx, ['jest', '--ci', '--json', `--outputFile=${report}`], cwd);
  const json = JSON.parse(readFileSync(report, 'utf8')) as {
    success: boolean;
    testResults: { assertionResults: { fullName: string; status: string }[] }[];
  };
  expect(json.success).toBe(true);
  return json.testResults.flatMap((r) =>
    r.assertionResults.filter((a) => a.status === 'passed').map((a) => a.fullName),
  );
}

/**
 * A fresh copy of this checkout (the files git tracks or would track, so no dist/), its node_modules
 * linked entry by entry (npm's `prepare` writes a stamp there; it must not reach ours).
 */
function freshCopy(into: string): string {
  const listed = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: repo, encoding: 'utf8' });
  for (const file of listed.split('\n').filter(Boolean)) {
    if (!existsSync(join(repo, file))) continue; // deleted but not yet committed
    mkdirSync(dirname(join(into, file)), { recursive: true });
    cpSync(join(repo, file), join(into, file));
  }
  mkdirSync(join(into, 'node_modules'));
  for (const entry of readdirSync(join(repo, 'node_modules'))) {
    if (!entry.startsWith('.'))
      symlinkSync(join(repo, 'node_modules', entry), join(into, 'node_modules', entry), 'dir');
  }
  return into;
}

/** `npm pack --json`: the JSON array comes last, after whatever the build printed. */
function packJson(stdout: string): { filename: string; files: { path: string }[] }[] {
  const start = stdout.lastIndexOf('\n[');
  return JSON.parse(start >= 0 ? stdout.slice(start + 1) : stdout) as never;
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'omc-scaffold-'));
  project = join(work, 'weather-desk');
  let packed;
  if (process.env.OMC_PACK_DIR) {
    // A staged copy, when trying package.json changes first: packed as it is.
    packed = packJson(
      run(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', work], process.env.OMC_PACK_DIR),
    );
  } else {
    // Packed from a fresh copy without building first: prepack builds dist/ (ours is left alone,
    // other suites load it in parallel).
    const clone = freshCopy(join(work, 'clone'));
    expect(existsSync(join(clone, 'dist'))).toBe(false);
    packed = packJson(run(npm, ['pack', '--json', '--pack-destination', work], clone));
  }
  const files = packed[0]!.files.map((f) => f.path);
  // The CLI needs its bin and its templates inside the published package.
  expect(files).toEqual(
    expect.arrayContaining([
      'bin/onemodelcontext.js',
      'dist/cjs/cli/main.js',
      'templates/add/tool.ts.tmpl',
      'templates/project/gitignore.tmpl',
    ]),
  );
  tarball = join(work, packed[0]!.filename);
}, 5 * MINUTES);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

test('create --from → tsc → jest → add tool, add resource-template → jest → serve over stdio', async () => {
  // The command docs/getting-started.md gives while the package is unpublished: the CLI comes from
  // the tarball too. create installs by itself (the framework from the tarball, the rest from the
  // registry), with progress lines.
  const created = run(
    npx,
    ['--yes', '--package', tarball, 'onemodelcontext', 'create', project, '--from', tarball],
    work,
  );
  expect(created).toMatch(/create src\/hello\.tool\.ts/);
  expect(created).toMatch(/create vendor\/onemodelcontext-[\d.]+\.tgz/);
  expect(created).toMatch(/installing dependencies \(npm install\)…[\s\S]*done installing dependencies/);
  expect(JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')).dependencies.onemodelcontext).toMatch(
    /^file:vendor\//,
  );
  // The app's reflect-metadata and class-validator, and the peers npm added for the framework, are one copy each.
  const oneCopy =
    "const f=require('path').dirname(require.resolve('onemodelcontext'));console.log(['reflect-metadata','class-validator','class-transformer','tsyringe'].every((d)=>require.resolve(d)===require.resolve(d,{paths:[f]})))";
  expect(run(process.execPath, ['-e', oneCopy], project).trim()).toBe('true');
  run(npx, ['tsc', '--noEmit'], project);
  expect(passedTests(project)).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^hello tool is listed/),
      expect.stringMatching(/^echo tool sends the text back/),
    ]),
  );

  // The installed package's own bin, as a user would run it.
  const added = run(npx, ['onemodelcontext', 'add', 'tool', 'Weather'], project);
  expect(added).toMatch(/update src\/app\.ts \(WeatherTool added to providers\)/);
  run(npx, ['onemodelcontext', 'add', 'resource-template', 'Book'], project);
  run(npx, ['tsc', '--noEmit'], project);
  const passed = passedTests(project);
  expect(passed).toEqual(
    expect.arrayContaining([
      'weather tool is listed with its input schema',
      'hello tool is listed with its input schema',
    ]),
  );
  expect(passed.filter((n) => n.startsWith('weather tool'))).toHaveLength(7);
  expect(passed).toContain('weather tool a client that cannot ask still gets an answer [2026-07-28]');
  expect(passed.filter((n) => n.startsWith('book resource template'))).toHaveLength(4);

  run(npm, ['run', 'build'], project);
  expect(await toolsOverStdio(join(project, 'dist', 'main.js'))).toEqual(['echo', 'hello', 'weather']);
}, 8 * MINUTES);

let httpProject: string;

test('--transport http scaffolds a project that type-checks and serves', async () => {
  httpProject = join(work, 'http-desk');
  run(
    process.execPath,
    [join(repo, 'bin', 'onemodelcontext.js'), 'create', httpProject, '--transport', 'http', '--no-install'],
    work,
  );
  // Reuse the first project's install; resolution walks up from http-desk/ through this symlink.
  symlinkSync(join(project, 'node_modules'), join(httpProject, 'node_modules'), 'dir');
  run(npx, ['tsc', '--noEmit'], httpProject);
  run(npx, ['tsc', '-p', 'tsconfig.build.json'], httpProject);
  expect(readdirSync(join(httpProject, 'dist'))).toContain('main.js');
  const tools = await toolsOverHttp(join(httpProject, 'dist', 'main.js'));
  expect(tools).toEqual(['echo', 'hello']);
}, 3 * MINUTES);

test('onemodelcontext dev: builds, serves, prints where it listens; a change rebuilds and restarts', async () => {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const dev = spawn(process.execPath, [join(repo, 'bin', 'onemodelcontext.js'), 'dev'], {
    cwd: httpProject,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, PORT: String(port) },
  });
  let log = '';
  const waiters: Array<() => void> = [];
  dev.stderr.on('data', (chunk: Buffer) => {
    log += chunk.toString('utf8');
    waiters.forEach((w) => w());
  });
  /** Resolves once `pattern` has matched `count` times in dev's stderr. */
  const seen = (pattern: RegExp, count: number) =>
    new Promise<void>((resolve, reject) => {
      const check = () => (log.match(new RegExp(pattern.source, 'g')) ?? []).length >= count && resolve();
      waiters.push(check);
      dev.once('exit', (code) => reject(new Error(`dev exited (${code}):\n${log}`)));
      check();
    });
  try {
    await seen(/\[dev\] ready: listening on http:\/\/127\.0\.0\.1:\d+\/mcp/, 1);
    expect(log).toContain(`[dev] ready: listening on http://127.0.0.1:${port}/mcp`);
    expect(await toolsAt(`http://127.0.0.1:${port}/mcp`)).toEqual(['echo', 'hello']);

    run(process.execPath, [join(repo, 'bin', 'onemodelcontext.js'), 'add', 'tool', 'Clock'], httpProject);
    await seen(/\[dev\] ready: listening on/, 2);
    expect(log).toMatch(/\[dev\] restarting…/);
    expect(await toolsAt(`http://127.0.0.1:${port}/mcp`)).toEqual(['echo', 'hello', 'clock']);
  } finally {
    dev.kill('SIGINT');
    await new Promise((resolve) => (dev.exitCode === null ? dev.once('exit', resolve) : resolve(undefined)));
  }
  // The server went down with dev.
  await expect(fetch(`http://127.0.0.1:${port}/mcp`)).rejects.toThrow();
}, 3 * MINUTES);

/**
 * Asks the scaffold's `hello` tool on a legacy session and never answers: resolves `asked` once the
 * question is at the client, `outcome` with how the call ended (its result, or the error).
 */
async function openQuestion(url: string): Promise<{ asked: Promise<void>; outcome: Promise<string> }> {
  let arrived!: () => void;
  const asked = new Promise<void>((resolve) => (arrived = resolve));
  const client = await ContextClient.connect(
    { url },
    {
      protocolVersion: '2025-11-25',
      elicitation: (_params, context) =>
        new Promise((_resolve, reject) => {
          arrived();
          context.signal.addEventListener('abort', () => reject(new Error('dismissed')));
        }),
    },
  );
  const outcome = client
    .callTool('hello', { subject: 'the report' })
    .then(
      (result) => JSON.stringify(result),
      (error: Error) => error.message,
    )
    .finally(() => void client.close().catch(() => undefined));
  return { asked, outcome };
}

test('dev with a question left open: a rename-save (sed -i) restarts and Ctrl+C stops at once, the question withdrawn', async () => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/mcp`;
  // Its own process group, like a terminal's foreground job: Ctrl+C reaches dev and the server alike.
  const dev = spawn(process.execPath, [join(repo, 'bin', 'onemodelcontext.js'), 'dev'], {
    cwd: httpProject,
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, PORT: String(port) },
  });
  let log = '';
  const waiters: Array<() => void> = [];
  dev.stderr.on('data', (chunk: Buffer) => {
    log += chunk.toString('utf8');
    waiters.forEach((w) => w());
  });
  const exited = new Promise<number | null>((resolve) => dev.once('exit', (code) => resolve(code)));
  const seen = (pattern: RegExp, count: number) =>
    new Promise<void>((resolve, reject) => {
      const check = () => (log.match(new RegExp(pattern.source, 'g')) ?? []).length >= count && resolve();
      waiters.push(check);
      void exited.then((code) => reject(new Error(`dev exited (${code}):\n${log}`)));
      check();
    });
  try {
    await seen(/\[dev\] ready: listening on/, 1);

    // An editor's save by rename while the user has not answered: the restart withdraws the question.
    const first = await openQuestion(url);
    await first.asked;
    execFileSync('sed', ['-i', 's/Cancelled\./Cancelled by the user./', join('src', 'hello.tool.ts')], {
      cwd: httpProject,
    });
    // Only the withdrawal ends the call with this text: the drain's deadline would cut the connection.
    expect(await first.outcome).toMatch(/shutting down: this question was withdrawn/);
    await seen(/\[dev\] ready: listening on/, 2);

    // Ctrl+C with a question open: dev and the server stop, the question withdrawn, nothing waits for it.
    const second = await openQuestion(url);
    await second.asked;
    process.kill(-dev.pid!, 'SIGINT');
    expect(await second.outcome).toMatch(/shutting down: this question was withdrawn/);
    expect(await exited).toBe(0);
    expect(log).toMatch(/\[dev\] stopping…/);
  } finally {
    if (dev.exitCode === null) process.kill(-dev.pid!, 'SIGKILL');
  }
}, 3 * MINUTES);

/** The TypeScript a new user gets from `npm i -D typescript` today; ts-jest refuses it, the scaffold does not. */
const TYPESCRIPT_7 = `typescript@${TYPESCRIPT_7_VERSION}`;

test('the same app under TypeScript 7: tsc, its tests (decorator metadata intact), build, serve', async () => {
  run(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', '-D', TYPESCRIPT_7], project);
  expect(run(npx, ['tsc', '--version'], project)).toMatch(/^Version 7\./);
  run(npx, ['tsc', '--noEmit'], project);
  const passed = passedTests(project);
  // "is listed with its input schema" reads the DTO through design:paramtypes: the metadata survived tsc 7.
  expect(passed).toEqual(
    expect.arrayContaining([
      'weather tool is listed with its input schema',
      'hello tool is listed with its input schema',
    ]),
  );
  expect(passed.filter((n) => n.startsWith('book resource template'))).toHaveLength(4);
  run(npm, ['run', 'build'], project);
  expect(await toolsOverStdio(join(project, 'dist', 'main.js'))).toEqual(['echo', 'hello', 'weather']);
}, 5 * MINUTES);

const modernMeta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'scaffold-e2e', version: '1.0.0' },
};

function toolsOverStdio(entry: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entry], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) {
        child.stdin.end();
        const reply = JSON.parse(line) as { result?: { tools: { name: string }[] } };
        resolve((reply.result?.tools ?? []).map((t) => t.name).sort());
      }
    });
    child.once('error', reject);
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: modernMeta } })}\n`,
    );
  });
}

async function toolsAt(url: string): Promise<string[]> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/list',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: modernMeta } }),
  });
  const text = await response.text();
  expect(response.status).toBe(200);
  const reply = JSON.parse(text) as { result: { tools: { name: string }[] } };
  return reply.result.tools.map((t) => t.name);
}

async function toolsOverHttp(entry: string): Promise<string[]> {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const child = spawn(process.execPath, [entry], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, PORT: String(port) },
  });
  try {
    await new Promise<void>((resolve, reject) => {
      child.stderr.on('data', (chunk: Buffer) => chunk.toString().includes('listening on') && resolve());
      child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    });
    return await toolsAt(`http://127.0.0.1:${port}/mcp`);
  } finally {
    child.kill('SIGTERM');
  }
}

test('the tarball exists (guards the beforeAll)', () => {
  expect(existsSync(tarball)).toBe(true);
});
