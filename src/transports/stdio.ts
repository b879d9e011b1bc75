/**
 * stdio transport: newline-delimited JSON-RPC on stdin/stdout. stdout carries only MCP messages;
 * console output is redirected to stderr. On stdin EOF in-flight calls finish, then it resolves.
 */
import { Console } from 'node:console';
import type { EndpointHost } from '../server/server-endpoint';
import { ErrorCode } from '../protocol/error-codes';
import { failure } from '../protocol/jsonrpc';
import { LineSplitter } from './line-splitter';
import { MessageConnection } from './message-connection';
import { StdioOptions, validateStdioOptions } from './stdio-options';

export { StdioOptions };

export interface StdioHandle {
  /** Resolves after stdin ended and in-flight calls finished. */
  readonly closed: Promise<void>;
}

export async function serveStdio(app: EndpointHost, init: Partial<StdioOptions> = {}): Promise<StdioHandle> {
  const options = validateStdioOptions(init);
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  if (options.redirectConsole && output === process.stdout) redirectConsoleToStderr();
  await app.endpoint.settings.ready(); // shared stores answer before the first message, or start-up fails saying why
  const principal = await app.endpoint.settings.authenticate?.({ transport: 'stdio', env: process.env });
  const connection = new MessageConnection(
    app.endpoint,
    (m, json) => output.write((json ?? JSON.stringify(m)) + '\n'),
    { principal, transport: 'stdio' },
  );
  const splitter = new LineSplitter(
    options.maxFrameBytes,
    (line) => connection.receiveText(line),
    () => output.write(JSON.stringify(failure(null, ErrorCode.InvalidRequest, 'Frame too large')) + '\n'),
    // As on HTTP: invalid bytes are a parse error, never U+FFFD handed to a tool.
    () => connection.receiveUnreadable('the frame is not valid UTF-8'),
  );
  const closed = new Promise<void>((resolve) => {
    input.on('data', (chunk: Buffer | string) => splitter.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk));
    input.once('end', () => {
      splitter.end();
      void connection.drain().then(resolve);
    });
    input.once('error', () => {
      connection.abort();
      resolve();
    });
  });
  return { closed };
}

/**
 * Every console method that prints (log, info, debug, dir, dirxml, table, group, count, time*,
 * trace, assert …) goes through one Console whose stdout is stderr, so group indentation and
 * counters keep working and nothing but MCP messages reaches stdout. That Console (and
 * `process.stderr` behind it) is made by the first print: a server that never prints does not pay
 * for them at start-up (issue 38). Each method then replaces itself with the Console's own, bound.
 */
function redirectConsoleToStderr(): void {
  const target = console as unknown as Record<string, unknown>;
  let toStderr: Record<string, (...args: unknown[]) => unknown> | undefined;
  for (const name of Object.keys(Console.prototype)) {
    if (typeof target[name] !== 'function') continue;
    const first = (...args: unknown[]): unknown => {
      toStderr ??= new Console({ stdout: process.stderr, stderr: process.stderr }) as unknown as typeof toStderr;
      const method = toStderr![name]!.bind(toStderr);
      if (target[name] === first) target[name] = method;
      return method(...args);
    };
    target[name] = first;
  }
}
