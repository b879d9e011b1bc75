/** Where the server writes its own diagnostics. Never stdout: on stdio that carries only MCP messages. */
export interface ServerLogger {
  warn(message: string, detail?: Record<string, unknown>): void;
  error(message: string, detail?: Record<string, unknown>): void;
}

export const stderrLogger: ServerLogger = {
  warn: (message, detail) => process.stderr.write(`[onemodelcontext] warn: ${message}${detail ? ' ' + JSON.stringify(detail) : ''}\n`),
  error: (message, detail) =>
    process.stderr.write(`[onemodelcontext] error: ${message}${detail ? ' ' + JSON.stringify(detail) : ''}\n`),
};

export const silentLogger: ServerLogger = { warn: () => undefined, error: () => undefined };
