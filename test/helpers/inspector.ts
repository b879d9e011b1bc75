/** The official MCP Inspector's CLI (pinned devDependency), as `npx @modelcontextprotocol/inspector --cli` runs it. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const manifest = require.resolve('@modelcontextprotocol/inspector/package.json');
const bin = join(
  dirname(manifest),
  (JSON.parse(readFileSync(manifest, 'utf8')) as { bin: Record<string, string> }).bin['mcp-inspector']!,
);

export interface CallToolResult {
  content: { type: string; text?: string }[];
  isError?: boolean;
  _meta?: Record<string, any>;
}

/**
 * Runs `inspector --cli <target…> <args…>` and returns its one JSON result. `target` is a URL or a
 * command line (a stdio server the Inspector starts itself). `era`: legacy (2025-11-25) or modern (2026-07-28).
 */
export function inspectorCli(target: string[], era: 'legacy' | 'modern', args: string[], cwd?: string): any {
  const stdout = execFileSync(
    process.execPath,
    [bin, '--cli', ...target, '--protocol-era', era, '--format', 'json', '-q', ...args],
    { cwd, encoding: 'utf8', timeout: 60_000 },
  );
  return (JSON.parse(stdout) as { result: unknown }).result;
}

export const textOf = (r: CallToolResult): string => r.content.map((c) => c.text ?? '').join('');
