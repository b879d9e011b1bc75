/**
 * Legacy asks on the wire, per negotiated revision (HTTP sessions): 2025-06-18 gets elicitation
 * without `mode` and flat primitive forms (titled single-select as enum + enumNames, defaults only
 * on booleans); a multi-select form is refused at ask time naming the field; sampling with tools
 * only on 2025-11-25; includeContext only to a client that declared sampling.context.
 */
import { IsBoolean, IsIn, IsInt, IsString } from 'class-validator';
import { Context, ContextServerModule, Field, McpApplication, Tool } from '../../../../src';
import { silentLogger } from '../../../../src/server/core/server-logger';
import { serveHttp, type HttpServerHandle } from '../../../../src/transports/http';
import { RawLegacyClient, streamingRequest } from '../../../helpers/http-fixtures';

class TripForm {
  @Field({ title: 'Class', enumTitles: { eco: 'Economy', biz: 'Business' }, default: 'eco' })
  @IsIn(['eco', 'biz'])
  cabin!: string;
  @IsIn(['aisle', 'window']) seat!: string;
  @Field({ enumTitles: { v: 'Vegan', m: 'Meat' }, legacyEnumNames: true }) @IsIn(['v', 'm']) meal!: string;
  @Field({ default: 'Ada' }) @IsString() name!: string;
  @Field({ default: 2 }) @IsInt() bags!: number;
  @Field({ default: true }) @IsBoolean() insured!: boolean;
}
class TagsForm {
  @IsIn(['a', 'b'], { each: true }) tags!: string[];
}

class AskingTools {
  @Tool({ description: 'Elicits a flat form', forms: [TripForm] })
  async trip(ctx: Context) {
    const r = await ctx.elicit(TripForm, 'Trip?');
    return r.action === 'accept' ? `${r.content.cabin}/${r.content.seat}/${r.content.meal}` : r.action;
  }
  @Tool({ description: 'Elicits a multi-select form', forms: [TagsForm] })
  async tags(ctx: Context) {
    const r = await ctx.elicit(TagsForm, 'Tags?');
    return r.action === 'accept' ? r.content.tags.join(',') : r.action;
  }
  @Tool({ description: 'Samples with context inclusion' })
  async withContext(ctx: Context) {
    const r = await ctx.sample({
      messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
      includeContext: 'thisServer',
    });
    return r.model;
  }
  @Tool({ description: 'Samples with tools' })
  async withTools(ctx: Context) {
    const r = await ctx.sample({
      messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
      tools: [{ name: 't', inputSchema: { type: 'object' } }],
    });
    return r.model;
  }
  @Tool({ description: 'Echo' })
  echo() {
    return 'still here';
  }
}

let server: HttpServerHandle;
beforeAll(async () => {
  const app = McpApplication.create({
    name: 'asks',
    version: '1.0.0',
    providers: [AskingTools],
    modules: [ContextServerModule.configure({ logger: silentLogger })],
  });
  server = await serveHttp(app, { port: 0 });
});
afterAll(() => server.close({ deadlineMs: 2000 }));

const SAMPLE = { role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'm1' };
const ELICIT = {
  action: 'accept',
  content: { cabin: 'biz', seat: 'aisle', meal: 'v', name: 'Ada', bags: 1, insured: true },
};

/** Calls a tool on a fresh session, answering every server request, and returns what the server sent. */
async function call(version: string, capabilities: Record<string, unknown>, tool: string) {
  const c = new RawLegacyClient(server.url, version);
  expect((await c.initialize(capabilities)).json().result.protocolVersion).toBe(version);
  const asked: any[] = [];
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: {} } });
  const r = await streamingRequest(server.url, { headers: c.headers(), body }, (ev) => {
    if (ev.method === 'elicitation/create' || ev.method === 'sampling/createMessage') {
      asked.push(ev);
      void c.post({ jsonrpc: '2.0', id: ev.id, result: ev.method === 'elicitation/create' ? ELICIT : SAMPLE });
    }
  });
  const reply = r.events.filter((e) => e.id === 1).pop();
  const echo = (await c.call(2, 'tools/call', { name: 'echo', arguments: {} })).json();
  return { asked, result: reply.result, echo: echo.result.content[0].text };
}

test('2025-06-18: elicitation has no mode and a flat form (enum + enumNames, defaults only on booleans)', async () => {
  const { asked, result } = await call('2025-06-18', { elicitation: {} }, 'trip');
  expect(asked).toHaveLength(1);
  expect(asked[0].params).toEqual({
    message: 'Trip?',
    requestedSchema: {
      type: 'object',
      properties: {
        cabin: { type: 'string', title: 'Class', enum: ['eco', 'biz'], enumNames: ['Economy', 'Business'] },
        seat: { type: 'string', enum: ['aisle', 'window'] },
        meal: { type: 'string', enum: ['v', 'm'], enumNames: ['Vegan', 'Meat'] },
        name: { type: 'string' },
        bags: { type: 'integer' },
        insured: { type: 'boolean', default: true },
      },
      required: ['seat', 'meal'],
    },
  });
  expect(result.content[0].text).toBe('biz/aisle/v');
});

test('2025-11-25: the same form keeps mode, oneOf and defaults', async () => {
  const { asked } = await call('2025-11-25', { elicitation: {} }, 'trip');
  expect(asked[0].params.mode).toBe('form');
  expect(asked[0].params.requestedSchema.properties.cabin).toEqual({
    type: 'string',
    title: 'Class',
    oneOf: [
      { const: 'eco', title: 'Economy' },
      { const: 'biz', title: 'Business' },
    ],
    default: 'eco',
  });
  expect(asked[0].params.requestedSchema.properties.name.default).toBe('Ada');
});

test('2025-06-18: a multi-select form is refused at ask time naming the field; nothing is sent; the session still serves', async () => {
  const { asked, result, echo } = await call('2025-06-18', { elicitation: {} }, 'tags');
  expect(asked).toEqual([]);
  expect(result.isError).toBe(true);
  expect(result.content[0].text).toMatch(/2025-06-18.*multi-select form field "tags"/);
  expect(echo).toBe('still here');
});

test('2025-11-25: the multi-select form is asked as an array of enums', async () => {
  const { asked } = await call('2025-11-25', { elicitation: {} }, 'tags');
  expect(asked[0].params.requestedSchema.properties.tags).toMatchObject({
    type: 'array',
    items: { type: 'string', enum: ['a', 'b'] },
  });
});

test.each(['2025-11-25', '2025-06-18', '2025-03-26'])('%s: includeContext only when the client declared sampling.context', async (version) => {
  const without = await call(version, { sampling: {} }, 'withContext');
  expect(without.asked).toHaveLength(1);
  expect(without.asked[0].params).not.toHaveProperty('includeContext');
  expect(without.result.content[0].text).toBe('m1');
  const declared = await call(version, { sampling: { context: {} } }, 'withContext');
  expect(declared.asked[0].params.includeContext).toBe('thisServer');
});

test('sampling tools: sent on 2025-11-25; refused on 2025-06-18 even when the client claims sampling.tools', async () => {
  const modern = await call('2025-11-25', { sampling: { tools: {} } }, 'withTools');
  expect(modern.asked[0].params.tools).toEqual([{ name: 't', inputSchema: { type: 'object' } }]);
  const old = await call('2025-06-18', { sampling: { tools: {} } }, 'withTools');
  expect(old.asked).toEqual([]);
  expect(old.result.isError).toBe(true);
  expect(old.result.content[0].text).toMatch(/2025-06-18 cannot carry sampling with tools/);
  expect(old.echo).toBe('still here');
});
