/** Where the server writes its own diagnostics. Never stdout: on stdio that carries only MCP messages. */
import { FrameworkError } from '../../errors/framework-error';

export interface ServerLogger {
  warn(message: string, detail?: Record<string, unknown>): void;
  error(message: string, detail?: Record<string, unknown>): void;
  /** The access log's lines (opt-in, `telemetry.accessLog`); a logger without it gets none. */
  info?(message: string, detail?: Record<string, unknown>): void;
}

/** pino's call shape (bunyan's too): the object first, the message second; `child()` and `levels` tell it apart. */
export interface PinoLikeLogger {
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  child(bindings: Record<string, unknown>): unknown;
  levels: object;
}

function isPinoLike(logger: ServerLogger | PinoLikeLogger): logger is PinoLikeLogger {
  const l = logger as Partial<PinoLikeLogger>;
  return typeof l.child === 'function' && typeof l.info === 'function' && typeof l.levels === 'object';
}

/** The configured logger in our shape: a pino-compatible one is called object first. */
export function toServerLogger(logger: ServerLogger | PinoLikeLogger): ServerLogger {
  if (!isPinoLike(logger)) return logger;
  return {
    warn: (message, detail) => logger.warn(detail ?? {}, message),
    error: (message, detail) => logger.error(detail ?? {}, message),
    info: (message, detail) => logger.info(detail ?? {}, message),
  };
}

/** What the log keeps of a thrown value: its message, framework code and stack (never sent to the client). */
export function thrownDetail(e: unknown): Record<string, unknown> {
  if (!(e instanceof Error)) return { error: String(e) };
  const detail: Record<string, unknown> = { error: e.message };
  if (e instanceof FrameworkError) detail.code = e.code;
  if (e.stack) detail.stack = e.stack;
  return detail;
}

function line(level: string, message: string, detail?: Record<string, unknown>): string {
  if (!detail) return `[onemodelcontext] ${level}: ${message}\n`;
  const { stack, ...rest } = detail;
  const head = `[onemodelcontext] ${level}: ${message}${Object.keys(rest).length ? ' ' + JSON.stringify(rest) : ''}\n`;
  // The stack goes on its own lines, readable as Node prints it.
  return typeof stack === 'string' ? `${head}${stack}\n` : head;
}

export const stderrLogger: ServerLogger = {
  warn: (message, detail) => process.stderr.write(line('warn', message, detail)),
  error: (message, detail) => process.stderr.write(line('error', message, detail)),
  info: (message, detail) => process.stderr.write(line('info', message, detail)),
};

export const silentLogger: ServerLogger = { warn: () => undefined, error: () => undefined, info: () => undefined };
