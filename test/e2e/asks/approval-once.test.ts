/**
 * Exactly-once across the approval-page path: a `ctx.once` before the question and one after it run
 * once over the calls of the flow, on both eras, and a repeat of the finished call runs nothing.
 */
import 'reflect-metadata';
import { IsBoolean } from 'class-validator';
import {
  Context,
  ContextServerModule,
  McpApplication,
  Tool,
  connectTestClient,
  serveHttp,
  type HttpServerHandle,
} from 'onemodelcontext';
import { rawRequest } from '../../helpers/http-fixtures';

const runs = { reserve: 0, charge: 0 };

class Agree {
  @IsBoolean() agree!: boolean;
}

class Trips {
  @Tool({ forms: [Agree], asks: { kinds: ['elicit'], fallback: 'approvalPage' } })
  async reserve(ctx: Context) {
    const hold = await ctx.once('hold', () => `hold-${++runs.reserve}`);
    const answer = await ctx.elicit(Agree, 'Keep the hold and pay?', { key: 'agree' });
    if (answer.action !== 'accept' || !answer.content.agree) return `released ${hold}`;
    const charge = await ctx.once('charge', () => `charge-${++runs.charge}`);
    return `${hold} ${charge}`;
  }
}

let server: HttpServerHandle;
beforeAll(async () => {
  const app = McpApplication.create({
    name: 'trips',
    version: '1.0.0',
    providers: [Trips],
    modules: [ContextServerModule.configure({ logger: { warn: () => undefined, error: () => undefined } })],
  });
  server = await serveHttp(app, { port: 0 });
});
afterAll(() => server.close({ deadlineMs: 1000 }));

test.each(['2026-07-28', '2025-11-25'] as const)('%s: once before and after the page run once', async (era) => {
  const kit = await connectTestClient({ url: server.url }, { era, declare: [] });
  try {
    const before = { ...runs };
    const first = await kit.callTool('reserve', {});
    const { id, url } = first.result._meta!['io.onemodelcontext/approval'] as { id: string; url: string };
    expect(runs.reserve - before.reserve).toBe(1);
    const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
    const answered = await rawRequest(url, { method: 'POST', headers: form, body: 'agree=true&_action=accept' });
    expect(answered.status).toBe(200);
    const done = await kit.callTool('reserve', { approvalId: id });
    expect(done.text).toBe(`hold-${before.reserve + 1} charge-${before.charge + 1}`);
    const again = await kit.callTool('reserve', { approvalId: id });
    expect(again.text).toBe(done.text);
    expect(runs).toEqual({ reserve: before.reserve + 1, charge: before.charge + 1 });
  } finally {
    await kit.close();
  }
});
