/**
 * Drives scripts/fleet.sh (Redis, three conformance-server instances, nginx) on free loopback
 * ports, and speaks raw HTTP to the load balancer or to one instance.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { JSON_HEADERS, modernMeta, rawRequest, replyOf } from '../../helpers/http-fixtures';

const run = promisify(execFile);
const repo = join(__dirname, '..', '..', '..');

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/** Five consecutive free ports: load balancer, three instances, Redis. */
async function freeBlock(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * 30_000);
    const all = await Promise.all([0, 1, 2, 3, 4].map((i) => portFree(base + i)));
    if (all.every(Boolean)) return base;
  }
  throw new Error('no five free consecutive ports');
}

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** The JSON-RPC response (the last result or error of an SSE body). */
  message: any;
}

export class Fleet {
  private constructor(
    readonly dir: string,
    readonly lbPort: number,
    readonly instancePorts: readonly number[],
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /**
   * `app`: which app the instances serve; `extraEnv`: e.g. FLEET_INSTANCES, or the instances' session
   * pool options (MAX_ANONYMOUS_SESSIONS). An object alone is `extraEnv` for the conformance app.
   */
  static async up(
    appOrEnv: 'conformance' | 'sample' | Record<string, string> = 'conformance',
    extraEnv: Record<string, string> = {},
  ): Promise<Fleet> {
    const app = typeof appOrEnv === 'string' ? appOrEnv : 'conformance';
    if (typeof appOrEnv !== 'string') extraEnv = { ...appOrEnv, ...extraEnv };
    const base = await freeBlock();
    const dir = mkdtempSync(join(tmpdir(), 'omc-fleet-'));
    const env = {
      ...process.env,
      FLEET_APP: app,
      FLEET_DIR: dir,
      FLEET_LB_PORT: String(base),
      FLEET_PORT_BASE: String(base + 1),
      FLEET_REDIS_PORT: String(base + 4),
      // test_fleet_ledger appends what ran here (every instance, one file).
      FLEET_LEDGER: join(dir, 'ledger.txt'),
      ...extraEnv,
    };
    const fleet = new Fleet(dir, base, [base + 1, base + 2, base + 3], env);
    await fleet.script('up');
    return fleet;
  }

  get url(): string {
    return `http://127.0.0.1:${this.lbPort}/mcp`;
  }

  instanceUrl(n: 1 | 2 | 3): string {
    return `http://127.0.0.1:${this.instancePorts[n - 1]}/mcp`;
  }

  /** The ledger's lines for a tag, by kind: `{ ONCE: [pid…], DONE: [pid…], HANG: [pid…] }`. */
  ledger(tag: string): Record<'ONCE' | 'DONE' | 'HANG', string[]> {
    const file = join(this.dir, 'ledger.txt');
    const out = { ONCE: [] as string[], DONE: [] as string[], HANG: [] as string[] };
    if (!existsSync(file)) return out;
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const [kind, t, pid] = line.split(' ');
      if (t === tag && (kind === 'ONCE' || kind === 'DONE' || kind === 'HANG')) out[kind].push(pid ?? '');
    }
    return out;
  }

  /** The instance number (1-3) whose process has this pid. */
  instanceOfPid(pid: string): 1 | 2 | 3 {
    for (const n of [1, 2, 3] as const) {
      const file = join(this.dir, `i${n}.pid`);
      if (existsSync(file) && readFileSync(file, 'utf8').trim() === pid) return n;
    }
    throw new Error(`no instance has pid ${pid}`);
  }

  /** Resolves once `probe` returns a value (checked every 50 ms, up to `timeoutMs`). */
  async until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
    const giveUpAt = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe();
      if (value !== undefined) return value;
      if (Date.now() > giveUpAt) throw new Error(`${what}: not within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async script(...args: string[]): Promise<string> {
    const { stdout } = await run('bash', ['scripts/fleet.sh', ...args], { cwd: repo, env: this.env, timeout: 90_000 });
    return stdout;
  }

  async down(): Promise<void> {
    try {
      await this.script('down');
    } finally {
      rmSync(this.dir, { recursive: true, force: true });
    }
  }
}

export async function post(url: string, body: unknown, headers: Record<string, string>): Promise<Reply> {
  const r = await rawRequest(url, { headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body) });
  let message: any;
  try {
    message = replyOf(r);
  } catch {
    message = undefined;
  }
  return { status: r.status, headers: r.headers, text: r.text, message };
}

let nextId = 1;

/** A 2026-07-28 tools/call that can answer elicitation (form, and URL when `url`). */
export function call(url: string, params: Record<string, unknown>, elicitation: object = {}): Promise<Reply> {
  const meta = modernMeta({ 'io.modelcontextprotocol/clientCapabilities': { elicitation } });
  const body = {
    jsonrpc: '2.0',
    id: nextId++,
    method: 'tools/call',
    params: { arguments: {}, ...params, _meta: meta },
  };
  return post(url, body, {
    'MCP-Protocol-Version': '2026-07-28',
    'Mcp-Method': 'tools/call',
    'Mcp-Name': String(params.name),
  });
}

/** An open SSE response; `next(predicate)` resolves with the first message that matches. */
export class SseReader {
  private buffer = '';
  private readonly messages: any[] = [];
  private waiters: Array<{ match: (m: any) => boolean; resolve: (m: any) => void }> = [];
  private closeFn: () => void = () => undefined;
  status = 0;
  headers: IncomingHttpHeaders = {};

  static open(
    url: string,
    init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: unknown },
  ): Promise<SseReader> {
    const reader = new SseReader();
    return new Promise((resolve, reject) => {
      const req = request(url, { method: init.method, headers: { ...JSON_HEADERS, ...init.headers } }, (res) => {
        reader.status = res.statusCode ?? 0;
        reader.headers = res.headers;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => reader.feed(chunk));
        res.on('error', () => undefined);
        resolve(reader);
      });
      reader.closeFn = () => req.destroy();
      req.on('error', reject);
      req.end(init.body === undefined ? undefined : JSON.stringify(init.body));
    });
  }

  next(match: (m: any) => boolean, timeoutMs = 10_000): Promise<any> {
    const found = this.messages.find(match);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no matching SSE message within ${timeoutMs} ms; got ${JSON.stringify(this.messages)}`)),
        timeoutMs,
      );
      this.waiters.push({ match, resolve: (m) => (clearTimeout(timer), resolve(m)) });
    });
  }

  close(): void {
    this.closeFn();
  }

  private feed(chunk: string): void {
    this.buffer += chunk;
    let end: number;
    while ((end = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const data = block
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => l.slice(6))
        .join('\n');
      if (!data.trim()) continue;
      const message = JSON.parse(data);
      this.messages.push(message);
      this.waiters = this.waiters.filter((w) => (w.match(message) ? (w.resolve(message), false) : true));
    }
  }
}

/** A legacy (2025-11-25) session by hand, on one URL (an instance, or the load balancer). */
export class LegacySession {
  sessionId = '';
  private id = 1;
  constructor(readonly url: string) {}

  headers(): Record<string, string> {
    return { 'MCP-Protocol-Version': '2025-11-25', ...(this.sessionId ? { 'Mcp-Session-Id': this.sessionId } : {}) };
  }

  async initialize(capabilities: Record<string, unknown> = {}): Promise<void> {
    const body = {
      jsonrpc: '2.0',
      id: this.id++,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 'fleet', version: '1' } },
    };
    const res = await post(this.url, body, { 'MCP-Protocol-Version': '2025-11-25' });
    this.sessionId = String(res.headers['mcp-session-id']);
    await post(this.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, this.headers());
  }

  request(method: string, params: Record<string, unknown> = {}): Promise<Reply> {
    return post(this.url, { jsonrpc: '2.0', id: this.id++, method, params }, this.headers());
  }

  openStream(lastEventId?: string): Promise<SseReader> {
    return SseReader.open(this.url, {
      method: 'GET',
      headers: { ...this.headers(), ...(lastEventId ? { 'Last-Event-ID': lastEventId } : {}) },
    });
  }
}
