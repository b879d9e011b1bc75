/** A small app for the HTTP tests, and a raw HTTP client that speaks either era by hand. */
import { IsInt, IsOptional, IsString } from 'class-validator';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Context, Field, McpApplication, Tool } from '../../src';
import { closeSseStream } from '../../src/transports/http';
import { silentLogger } from '../../src/server/core/server-logger';
import type { Principal } from '../../src/context/principal';
import { randomBytes } from 'node:crypto';

const STATE_KEY = randomBytes(32);

export class EchoArgs {
  @IsString() @Field({ description: 'What to echo' }) text!: string;
}
export class SlowArgs {
  @IsInt() @Field() steps!: number;
  @IsOptional() @IsInt() @Field() delayMs?: number;
}
export class NameForm {
  @IsString() name!: string;
}

/** Observations the tests read back. */
export const probe = { aborted: 0, started: 0, completed: 0, afterAbortWrites: 0 };

export class TestTools {
  @Tool({ description: 'Echo' })
  echo(args: EchoArgs) {
    return args.text;
  }
  @Tool({ description: 'Reports progress, then answers' })
  async slow(args: SlowArgs, ctx: Context) {
    probe.started++;
    for (let i = 1; i <= args.steps; i++) {
      await new Promise((r) => setTimeout(r, args.delayMs ?? 5));
      await ctx.progress(i, args.steps, `step ${i}`);
    }
    probe.completed++;
    return `done ${args.steps}`;
  }
  @Tool({ description: 'Elicits a name' })
  async greet(_args: EchoArgs, ctx: Context) {
    const r = await ctx.elicit(NameForm, 'Your name?', { key: 'user_name' });
    return r.action === 'accept' ? `Hello, ${r.content.name}!` : 'no';
  }
  @Tool({ description: 'Asks for confirmation' })
  async wipe(_args: EchoArgs, ctx: Context) {
    return (await ctx.confirm('Really wipe?')) ? 'wiped' : 'kept';
  }
  @Tool({ description: 'Never resolves until cancelled' })
  async hang(_args: EchoArgs, ctx: Context) {
    probe.started++;
    await ctx.progress(1, 2, 'started');
    await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
    probe.aborted++;
    await ctx.progress(2, 2, 'after abort');
    return 'should never be seen';
  }
  @Tool({ description: 'Throws' })
  boom(_args: EchoArgs): string {
    throw new Error('kaboom');
  }
  @Tool({ description: 'Closes its SSE stream mid-call (SSE polling)' })
  async test_reconnection(_args: EchoArgs, ctx: Context) {
    await ctx.progress(1, 2);
    await closeSseStream(ctx.signal);
    await new Promise((r) => setTimeout(r, 50));
    await ctx.progress(2, 2);
    return 'reconnected';
  }
}

export interface AppOptions {
  authenticate?: (r: { headers?: Record<string, unknown> }) => Principal | undefined;
}

export function makeApp(opts: AppOptions = {}): McpApplication {
  const { ContextServerModule } = require('../../src') as typeof import('../../src');
  const app = McpApplication.create({
    name: 'http-test',
    version: '1.0.0',
    providers: [TestTools],
    modules: [
      ContextServerModule.configure({
        logger: silentLogger,
        authenticate: opts.authenticate as never,
        requestStateKey: STATE_KEY,
      }),
    ],
  });
  app.addTool({
    name: 'regional',
    description: 'x-mcp-header fixture',
    input: {
      type: 'object',
      properties: {
        region: { type: 'string', 'x-mcp-header': 'Region' },
        level: { type: 'integer', 'x-mcp-header': 'Level' },
        flag: { type: 'boolean', 'x-mcp-header': 'Flag' },
      },
    },
    handler: (input: Record<string, unknown>) => `region=${String(input.region)}`,
  });
  return app;
}

export const MODERN = '2026-07-28';

export function modernMeta(extra: Record<string, unknown> = {}) {
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' },
    ...extra,
  };
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json(): any;
  /** SSE `data:` payloads, parsed. */
  events(): any[];
}

export function parseSse(text: string): any[] {
  return text
    .split('\n\n')
    .map((block) => block.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n'))
    .filter((d) => d.trim().length > 0)
    .map((d) => JSON.parse(d));
}

function wrap(status: number, headers: IncomingHttpHeaders, text: string): RawResponse {
  return { status, headers, text, json: () => JSON.parse(text), events: () => parseSse(text) };
}

/** One raw HTTP request with node:http (so Host/Origin and odd bodies can be set freely). */
export function rawRequest(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: init.method ?? 'POST', headers: init.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(wrap(res.statusCode ?? 0, res.headers, Buffer.concat(chunks).toString('utf8'))));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (init.body !== undefined) req.write(init.body);
    req.end();
  });
}

export const JSON_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

/** A 2026-07-28 request with matching headers. */
export function modernPost(
  url: string,
  id: number | string,
  method: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  const body = {
    jsonrpc: '2.0',
    id,
    method,
    params: { ...params, _meta: { ...modernMeta(), ...(params._meta as object) } },
  };
  const named: Record<string, string> =
    typeof params.name === 'string'
      ? { 'Mcp-Name': params.name }
      : typeof params.uri === 'string'
        ? { 'Mcp-Name': params.uri }
        : {};
  return rawRequest(url, {
    headers: { ...JSON_HEADERS, 'MCP-Protocol-Version': MODERN, 'Mcp-Method': method, ...named, ...headers },
    body: JSON.stringify(body),
  });
}

/** A legacy client by hand: initialize, then requests on the session. */
export class RawLegacyClient {
  sessionId?: string;
  constructor(
    readonly url: string,
    readonly version = '2025-11-25',
    readonly extraHeaders: Record<string, string> = {},
  ) {}

  headers(): Record<string, string> {
    return {
      ...JSON_HEADERS,
      'MCP-Protocol-Version': this.version,
      ...(this.sessionId ? { 'Mcp-Session-Id': this.sessionId } : {}),
      ...this.extraHeaders,
    };
  }

  async initialize(capabilities: Record<string, unknown> = {}): Promise<RawResponse> {
    const r = await rawRequest(this.url, {
      headers: this.headers(),
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: this.version, capabilities, clientInfo: { name: 'raw', version: '0' } },
      }),
    });
    this.sessionId = r.headers['mcp-session-id'] as string | undefined;
    await this.post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return r;
  }

  post(body: unknown): Promise<RawResponse> {
    return rawRequest(this.url, { headers: this.headers(), body: JSON.stringify(body) });
  }

  call(id: number | string, method: string, params: Record<string, unknown> = {}): Promise<RawResponse> {
    return this.post({ jsonrpc: '2.0', id, method, params });
  }
}

/** The JSON-RPC reply in a response, whether it came as JSON or as the last SSE event. */
export function replyOf(r: RawResponse): any {
  if (String(r.headers['content-type']).startsWith('text/event-stream')) {
    const ev = r.events();
    return ev.filter((e) => 'result' in e || 'error' in e).pop();
  }
  return r.json();
}

export function trackProcessFaults() {
  const faults: unknown[] = [];
  const onFault = (e: unknown) => faults.push(e);
  process.on('unhandledRejection', onFault);
  process.on('uncaughtException', onFault);
  return {
    faults,
    stop: () => {
      process.off('unhandledRejection', onFault);
      process.off('uncaughtException', onFault);
    },
  };
}

/** POSTs and reads the SSE answer incrementally, calling `onEvent` for each message as it arrives. */
export function streamingRequest(
  url: string,
  init: { method?: string; headers: Record<string, string>; body?: string },
  onEvent: (event: any, raw: { id?: string }) => void,
): Promise<{ status: number; headers: IncomingHttpHeaders; events: any[]; ids: string[] }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: init.method ?? 'POST', headers: init.headers }, (res) => {
      let buffer = '';
      const events: any[] = [];
      const ids: string[] = [];
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const id = /^id: (.*)$/m.exec(block)?.[1];
          if (id !== undefined) ids.push(id);
          const data = block.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
          if (data.trim()) {
            const ev = JSON.parse(data);
            events.push(ev);
            onEvent(ev, { id });
          }
        }
      });
      res.on('end', () => {
        if (!String(res.headers['content-type']).startsWith('text/event-stream') && buffer.trim())
          events.push(JSON.parse(buffer));
        resolve({ status: res.statusCode ?? 0, headers: res.headers, events, ids });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

/**
 * POSTs `body` and walks away (destroys the request) as soon as the first chunk of the answer
 * arrives; resolves with everything received until `lingerMs` later.
 */
export function leaveAfterFirstChunk(
  url: string,
  headers: Record<string, string>,
  body: string,
  lingerMs = 0,
): Promise<string> {
  return new Promise((resolve) => {
    const chunks: string[] = [];
    const req = httpRequest(url, { method: 'POST', headers }, (res) => {
      res.on('data', (c: Buffer) => {
        chunks.push(c.toString());
        if (req.destroyed) return;
        req.destroy();
        setTimeout(() => resolve(chunks.join('')), lingerMs);
      });
      res.on('error', () => undefined);
    });
    req.on('error', () => undefined);
    req.end(body);
  });
}

export async function waitFor(cond: () => boolean, timeoutMs = 3000): Promise<void> {
  const start = Date.now();
  while (!cond()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}
