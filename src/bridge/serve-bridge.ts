/**
 * `onemodelcontext bridge`: one upstream server (`--command` over stdio, or `--url`) fronted on both
 * revisions, over Streamable HTTP (`--port`) or stdio (`--stdio`), with the environment our apps
 * read (REQUEST_STATE_KEY, REDIS_URL, ALLOWED_HOSTS, …; docs/deployment.md). The CLI loads this
 * file from the built package; nothing else imports it.
 */
import 'reflect-metadata';
import { McpApplication } from '../app/application';
import { ContextServerModule } from '../server/core/server-module';
import { readDeploymentEnv, httpOptionsFromEnv } from '../transports/http/deployment-env';
import { serveHttp } from '../transports/http';
import { serveStdio } from '../transports/stdio';
import { mountServer, type Mount } from './mount';
export { terminateStdioServers } from '../client/stdio-transport';
import type { MountOptions } from './mount-options';

const BRIDGE_VERSION = '0.1.0';

export interface BridgeCommand {
  /** The upstream's command line (split like a shell would: quotes group, no expansion). */
  command?: string;
  url?: string;
  /** HTTP port; PORT from the environment, else 3000. Ignored with `stdio`. */
  port?: number;
  stdio: boolean;
  /** Upstream HTTP headers, `Name: value`. */
  headers?: string[];
  /** The revision to speak upstream (MountOptions.protocolVersion; default auto). */
  upstreamVersion?: string;
  /** Items kept per upstream list (MountOptions.maxListItems; default 1000). */
  maxListItems?: number;
}

export interface RunningBridge {
  mount: Mount;
  /** The HTTP endpoint (undefined on stdio). */
  url?: string;
  /** Settles when the bridge stopped (stdio closed, or `close()`). */
  closed: Promise<void>;
  close(): Promise<void>;
}

export async function runBridge(
  c: BridgeCommand,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<RunningBridge> {
  const deployment = readDeploymentEnv(env);
  const key = deployment.requestStateKey;
  const modules = [ContextServerModule.configure(key ? { requestStateKey: key } : {})];
  if (deployment.redisUrl) {
    // Loaded only when a fleet asks for it.
    const { RedisModule } = await import('../redis');
    modules.push(RedisModule.configure({ url: deployment.redisUrl }) as never);
  }
  const app = McpApplication.create({
    name: 'onemodelcontext-bridge',
    version: BRIDGE_VERSION,
    providers: [],
    modules,
  });
  const [program, ...args] = c.command === undefined ? [] : splitCommandLine(c.command);
  const mount = await mountServer(app, {
    namespace: 'upstream',
    prefixNames: false,
    ...(program === undefined ? { url: c.url } : { command: program, args }),
    ...(c.headers?.length ? { headers: parseHeaders(c.headers) } : {}),
    ...(c.upstreamVersion ? { protocolVersion: c.upstreamVersion as MountOptions['protocolVersion'] } : {}),
    ...(c.maxListItems !== undefined ? { maxListItems: c.maxListItems } : {}),
  });
  const stopAll = async (stopTransport: () => Promise<void>) => {
    await stopTransport();
    await mount.close();
    await app.close();
  };
  if (c.stdio) {
    const handle = await serveStdio(app);
    let told!: () => void;
    const stopped = new Promise<void>((resolve) => (told = resolve));
    // stdio ends when its input ends, or on close() (a signal): then our stdin is let go too, or it
    // would keep the process running after the upstream side stopped.
    const closed = Promise.race([handle.closed, stopped]).then(() => stopAll(async () => undefined));
    const close = () => {
      told();
      process.stdin.destroy();
      return closed;
    };
    return { mount, closed, close };
  }
  const http = await serveHttp(app, httpOptionsFromEnv({ ...deployment, port: c.port ?? deployment.port }));
  let done!: () => void;
  const closed = new Promise<void>((resolve) => (done = resolve));
  return {
    mount,
    url: http.url,
    closed,
    close: () => stopAll(() => http.close({ deadlineMs: 5000 })).finally(done),
  };
}

/** `a "b c" 'd'` → [a, b c, d]: quotes group words; nothing is expanded (no shell runs). */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|'([^']*)'|([^\s"']+)/g;
  let current = '';
  let last = -1;
  for (let m = re.exec(line); m; m = re.exec(line)) {
    const part = m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : (m[2] ?? m[3]!);
    if (m.index === last) current += part;
    else {
      if (last !== -1) words.push(current);
      current = part;
    }
    last = re.lastIndex;
  }
  if (last !== -1) words.push(current);
  return words;
}

function parseHeaders(lines: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of lines) {
    const at = line.indexOf(':');
    if (at > 0) out[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return out;
}
