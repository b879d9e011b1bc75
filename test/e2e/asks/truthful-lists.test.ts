/**
 * Lists that tell the truth: a tool whose declared asks the client cannot serve, with no fallback,
 * is annotated (default) or hidden, with a log line naming tool, client and capability; a tool
 * with a fallback, or a client that can ask, sees it as declared, `_meta` showing its asks.
 */
import 'reflect-metadata';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Context, ContextServerModule, McpApplication, Tool, serveHttp, type HttpServerHandle } from 'onemodelcontext';

class Ops {
  @Tool({ description: 'Deletes things', asks: { kinds: ['confirm'] } })
  async remove(ctx: Context) {
    return (await ctx.confirm('Delete?')) ? 'deleted' : 'kept';
  }

  @Tool({ description: 'Deletes with a fallback', asks: { kinds: ['confirm'], fallback: 'deny' } })
  async removeSafely(ctx: Context) {
    return (await ctx.confirm('Delete?')) ? 'deleted' : 'kept';
  }
}

const warnings: string[] = [];
function serve(unservableTools: 'hide' | 'annotate'): Promise<HttpServerHandle> {
  const app = McpApplication.create({
    name: 'ops',
    version: '1.0.0',
    providers: [Ops],
    modules: [
      ContextServerModule.configure({
        asks: { unservableTools },
        logger: { warn: (m: string) => void warnings.push(m), error: () => undefined },
      }),
    ],
  });
  return serveHttp(app, { port: 0 });
}

async function listWith(url: string, era: 'legacy' | 'modern', caps: Record<string, unknown>) {
  if (era === 'legacy') {
    const c = new LegacyClient({ name: 'web-host', version: '1' }, { capabilities: caps });
    await c.connect(new LegacyTransport(new URL(url)));
    const { tools } = await c.listTools();
    await c.close();
    return tools;
  }
  const c = new ModernClient(
    { name: 'web-host', version: '1' },
    { capabilities: caps, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await c.connect(new ModernTransport(new URL(url)));
  const { tools } = await c.listTools();
  await c.close();
  return tools;
}

let annotate: HttpServerHandle;
let hide: HttpServerHandle;
beforeAll(async () => {
  annotate = await serve('annotate');
  hide = await serve('hide');
});
afterAll(async () => {
  await annotate.close({ deadlineMs: 1000 });
  await hide.close({ deadlineMs: 1000 });
});

describe.each(['legacy', 'modern'] as const)('%s official client', (era) => {
  test('without elicitation: annotated, with the missing capability in _meta and a log line', async () => {
    const tools = await listWith(annotate.url, era, {});
    const remove = tools.find((t) => t.name === 'remove')!;
    expect(remove.description).toContain('This client cannot use this tool: it needs the elicitation capability');
    expect(remove._meta?.['io.onemodelcontext/asks']).toEqual({ kinds: ['confirm'], unservable: ['elicitation'] });
    const safe = tools.find((t) => t.name === 'removeSafely')!;
    expect(safe.description).toBe('Deletes with a fallback');
    expect(safe._meta?.['io.onemodelcontext/asks']).toEqual({ kinds: ['confirm'], fallback: 'deny' });
    const logged = warnings.filter((w) => w.includes('tool remove annotated for web-host'));
    expect(logged.some((w) => w.includes('elicitation'))).toBe(true);
  });

  test('without elicitation and unservableTools hide: hidden; with elicitation: listed as declared', async () => {
    expect((await listWith(hide.url, era, {})).map((t) => t.name)).toEqual(['removeSafely']);
    const withElicitation = await listWith(hide.url, era, { elicitation: {} });
    expect(withElicitation.map((t) => t.name)).toEqual(['remove', 'removeSafely']);
    expect(withElicitation[0]!.description).toBe('Deletes things');
  });
});
