// The servers of the field's benchmark (issue 34): ours, the official SDK v2 and the TypeScript
// frameworks that install from the registry (devDependencies), each with one `echo` tool, each on the
// wires it speaks. `legacy` says how a 2025-11-25 client is served: 'session' (initialize hands out an
// Mcp-Session-Id, kept per virtual user) or 'stateless' (no session id; every request stands alone).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LEGACY, MODERN } from './wire.mjs';

const file = (name) => fileURLToPath(new URL(`../servers/${name}`, import.meta.url));
const XMCP_DIR = file('xmcp');
const version = (pkg) => JSON.parse(readFileSync(new URL(`../../node_modules/${pkg}/package.json`, import.meta.url), 'utf8')).version;
// Neither peer phones home from this machine (loopback only), but each would try: switch it off.
const QUIET = { MCP_USE_ANONYMIZED_TELEMETRY: 'false', XMCP_TELEMETRY_DISABLED: 'true' };

export const PEERS = [
  { label: 'ours', file: file('ours.cjs'), env: { TOOLS: 'echo' }, wires: [MODERN, LEGACY], legacy: 'session',
    how: 'serveHttp on node:http, a decorated class with a class-validator DTO' },
  { label: 'sdk-v2', file: file('sdk-v2.mjs'), env: { TOOLS: 'echo' }, wires: [MODERN, LEGACY], legacy: 'stateless',
    how: `@modelcontextprotocol/server ${version('@modelcontextprotocol/server')}: createMcpHandler + toNodeHandler, zod schema` },
  { label: 'mcp-use', file: file('mcp-use.mjs'), env: { ...QUIET }, wires: [MODERN, LEGACY], legacy: 'stateless',
    how: `mcp-use ${version('mcp-use')}: MCPServer + server.tool + listen (request log off)` },
  { label: 'fastmcp', file: file('fastmcp.mjs'), env: {}, wires: [LEGACY], legacy: 'session',
    how: `fastmcp ${version('fastmcp')}: FastMCP + addTool, httpStream (2025-11-25 and earlier only)` },
  { label: 'xmcp', file: `${XMCP_DIR}/dist/http.js`, env: { ...QUIET }, wires: [MODERN, LEGACY], legacy: 'stateless',
    how: `xmcp ${version('xmcp')}: src/tools/echo.ts built by \`xmcp build\` (HTTP transport)`, prepare: buildXmcp },
];

/**
 * xmcp reads its port from the build, not from PORT (its config schema defaults it to 3001), so it is
 * built once per bench run for one free port, and every xmcp process of the run listens there.
 */
function buildXmcp(peer, port) {
  execFileSync(process.execPath, [fileURLToPath(new URL('../../node_modules/xmcp/dist/cli.js', import.meta.url)), 'build'], {
    cwd: XMCP_DIR, env: { ...process.env, ...QUIET, XMCP_PORT: String(port) }, stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (!existsSync(peer.file)) throw new Error(`xmcp build wrote no ${peer.file}`);
  peer.fixedPort = port;
}

/** The peers named in `only` (comma list; all when empty), each prepared once (`freePort` for a build). */
export async function preparePeers(only, freePort) {
  const wanted = only ? new Set(only.split(',')) : undefined;
  const peers = PEERS.filter((p) => !wanted || wanted.has(p.label));
  for (const p of peers) if (p.prepare && !p.fixedPort) p.prepare(p, await freePort());
  return peers;
}
