/** The official clients used against the bridge, each answering every kind of ask. */
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport as LegacyStdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StdioClientTransport as ModernStdio } from '@modelcontextprotocol/client/stdio';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from '../../helpers/free-port';

export const EVERYTHING = join(__dirname, '../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js');

/** Fills a requested form: strings 'Ada' (an enum's first value, an email for format email), true, 1. */
export function fillForm(schema: { properties?: Record<string, Record<string, unknown>> } | undefined) {
  const content: Record<string, unknown> = {};
  for (const [key, p] of Object.entries(schema?.properties ?? {})) {
    const values = (p.enum ?? p.oneOf) as unknown[] | undefined;
    if (p.type === 'boolean') content[key] = true;
    else if (p.type === 'number' || p.type === 'integer') content[key] = Number(p.minimum ?? 1);
    else if (p.type === 'array') content[key] = [];
    else if (values?.length) content[key] = (values[0] as { const?: unknown }).const ?? values[0];
    else content[key] = p.format === 'email' ? 'ada@example.com' : p.format === 'uri' ? 'https://example.com' : 'Ada';
  }
  return { action: 'accept', content };
}

export const ANSWERS = {
  sampling: { role: 'assistant', content: { type: 'text', text: 'sampled by the caller' }, model: 'test-model' },
  roots: { roots: [{ uri: 'file:///bridged-root', name: 'bridged' }] },
};

/** Where a peer connects: a URL (Streamable HTTP) or a process to start (stdio). */
export type PeerTarget = string | { command: string; args: string[] };

export interface Peer {
  listTools(): Promise<string[]>;
  call(name: string, args?: Record<string, unknown>): Promise<{ text: string; isError?: boolean }>;
  asks: string[];
  readResource(uri: string): Promise<Array<{ uri: string; text?: string }>>;
  getPrompt(name: string, args?: Record<string, string>): Promise<string>;
  close(): Promise<void>;
}

const promptText = (r: { messages: Array<{ content: unknown }> }) =>
  r.messages.map((m) => (m.content as { text?: string }).text ?? '').join('\n');

const textOf = (r: { content?: unknown; isError?: unknown }) => ({
  text: ((r.content as Array<{ text?: string }>) ?? []).map((c) => c.text ?? '').join('\n'),
  isError: r.isError === true ? true : undefined,
});

/** The official v2 client on 2026-07-28: it answers input_required rounds with these handlers. */
export async function modernPeer(target: PeerTarget): Promise<Peer> {
  const asks: string[] = [];
  const client = new ModernClient(
    { name: 'v2-peer', version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} },
      versionNegotiation: { mode: { pin: '2026-07-28' } },
    },
  );
  client.setRequestHandler('elicitation/create', async (r) => {
    asks.push('elicitation');
    return fillForm((r.params as { requestedSchema?: never }).requestedSchema) as never;
  });
  client.setRequestHandler('sampling/createMessage', async () => (asks.push('sampling'), ANSWERS.sampling as never));
  client.setRequestHandler('roots/list', async () => (asks.push('roots'), ANSWERS.roots as never));
  await client.connect(
    typeof target === 'string'
      ? new ModernTransport(new URL(target))
      : new ModernStdio({ ...target, stderr: 'ignore' }),
  );
  return {
    asks,
    listTools: async () => (await client.listTools()).tools.map((t) => t.name),
    call: async (name, args = {}) => textOf((await client.callTool({ name, arguments: args })) as never),
    readResource: async (uri) => (await client.readResource({ uri })).contents as never,
    getPrompt: async (name, args = {}) => promptText((await client.getPrompt({ name, arguments: args })) as never),
    close: () => client.close(),
  };
}

/** The official v1 client on a 2025-11-25 session: asks arrive as real requests. */
export async function legacyPeer(target: PeerTarget): Promise<Peer> {
  const asks: string[] = [];
  const client = new LegacyClient(
    { name: 'v1-peer', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} } },
  );
  client.setRequestHandler(ElicitRequestSchema, async (r) => {
    asks.push('elicitation');
    return fillForm((r.params as { requestedSchema?: never }).requestedSchema) as never;
  });
  client.setRequestHandler(CreateMessageRequestSchema, async () => (asks.push('sampling'), ANSWERS.sampling as never));
  client.setRequestHandler(ListRootsRequestSchema, async () => (asks.push('roots'), ANSWERS.roots as never));
  await client.connect(
    typeof target === 'string'
      ? new LegacyTransport(new URL(target))
      : new LegacyStdio({ ...target, stderr: 'ignore' }),
  );
  return {
    asks,
    listTools: async () => (await client.listTools()).tools.map((t) => t.name),
    call: async (name, args = {}) => textOf((await client.callTool({ name, arguments: args })) as never),
    readResource: async (uri) => (await client.readResource({ uri })).contents as never,
    getPrompt: async (name, args = {}) => promptText((await client.getPrompt({ name, arguments: args })) as never),
    close: () => client.close(),
  };
}

/** server-everything in its streamableHttp mode on a free port; resolves once it listens. */
export async function everythingOverHttp(): Promise<{ url: string; child: ChildProcess; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let err = '';
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      if (err.includes('listening on port')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`server-everything exited (${code}): ${err}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    child,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
