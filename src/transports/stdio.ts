/**
 * stdio transport: newline-delimited JSON-RPC on stdin/stdout. stdout carries only MCP messages;
 * console output is redirected to stderr. On stdin EOF in-flight calls finish, then it resolves.
 */
import type { McpApplication } from '../app/application';
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

export async function serveStdio(app: McpApplication, init: Partial<StdioOptions> = {}): Promise<StdioHandle> {
  const options = validateStdioOptions(init);
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  if (options.redirectConsole !== false && output === process.stdout) redirectConsoleToStderr();
  const principal = await app.options.authenticate?.({ transport: 'stdio', env: process.env });
  const connection = new MessageConnection(
    app.server,
    (m) => output.write(JSON.stringify(m) + '\n'),
    { principal },
  );
  const splitter = new LineSplitter(
    options.maxFrameBytes ?? 10 * 1024 * 1024,
    (line) => connection.receiveText(line),
    () => output.write(JSON.stringify(failure(null, ErrorCode.InvalidRequest, 'Frame too large')) + '\n'),
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

function redirectConsoleToStderr(): void {
  const toStderr = (...args: unknown[]) => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
}
