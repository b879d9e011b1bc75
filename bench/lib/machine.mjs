// The machine and versions a run happened on, for the report header.
import { cpus, totalmem, release } from 'node:os';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { HAS_TASKSET } from './procs.mjs';

// Read from disk: some packages' `exports` hide their package.json from require.
const manifest = (dir) => JSON.parse(readFileSync(new URL(`../../${dir}package.json`, import.meta.url), 'utf8'));
const versionOf = (pkg) => { try { return manifest(`node_modules/${pkg}/`).version; } catch { return 'n/a'; } };

/** HEAD of the checkout, marked "+dirty src" when src/ has uncommitted changes (dist may hold them). */
export function sourceRevision() {
  const git = (...a) => execFileSync('git', a, { cwd: new URL('../..', import.meta.url), encoding: 'utf8' }).trim();
  try { return `${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain', '--', 'src') ? ' +dirty src' : ''}`; } catch { return 'unknown'; }
}

export function machineInfo() {
  const c = cpus();
  return {
    cpu: `${c.length} × ${c[0]?.model ?? 'unknown'}`, memGB: Math.round(totalmem() / 2 ** 30), kernel: release(), node: process.version,
    source: sourceRevision(),
    pinning: HAS_TASKSET ? 'servers taskset -c 0, load generator taskset -c 1' : 'none (taskset missing)',
    packages: Object.fromEntries(['onemodelcontext', '@modelcontextprotocol/server', '@modelcontextprotocol/node', '@modelcontextprotocol/sdk', 'mcp-use', 'fastmcp', 'xmcp', 'zod', 'autocannon', 'class-validator', 'ajv'].map((p) => [p, p === 'onemodelcontext' ? manifest('').version : versionOf(p)])),
  };
}
