import { ContextServerModule, McpApplication, MemoryClient, type MemoryClientOptions } from '../../src';
import { silentLogger, type ServerLogger } from '../../src/server/core/server-logger';
export { McpApplication, MemoryClient };

/** An application with a silent (or recording) logger: refusals are expected in these tests. */
export function makeApp(providers: Function[], options: Record<string, unknown> = {}): McpApplication {
  return McpApplication.create({
    name: 'test-app',
    version: '1.0.0',
    providers,
    modules: [ContextServerModule.configure({ logger: silentLogger, ...options })],
  });
}

export function recordingLogger(): ServerLogger & { lines: { message: string; detail?: Record<string, unknown> }[] } {
  const lines: { message: string; detail?: Record<string, unknown> }[] = [];
  return {
    lines,
    warn: (message, detail) => lines.push({ message, detail }),
    error: (message, detail) => lines.push({ message, detail }),
  };
}

export async function clients(app: McpApplication, options: Partial<MemoryClientOptions> = {}) {
  return {
    modern: await MemoryClient.connect(app, { era: 'modern', ...options }),
    legacy: await MemoryClient.connect(app, { era: 'legacy', ...options }),
  };
}
