/**
 * What a 2026 flow seals of the client's answers (issue 11): only answers an ask used, trimmed to
 * the form's fields, so unasked keys and junk never grow the state; an answer that fails the
 * form is asked again with the reason, at most maxReasks times, then the tool fails naming it —
 * as on legacy, where the re-ask also carries the reason.
 */
import { IsInt, IsString, Max, Min } from 'class-validator';
import { randomBytes } from 'node:crypto';
import {
  Context,
  ContextClient,
  ContextServerModule,
  McpApplication,
  Tool,
  serveHttp,
  type HttpServerHandle,
} from '../../../../src';
import { silentLogger } from '../../../../src/server/core/server-logger';
import { modernPost } from '../../../helpers/http-fixtures';

class AgeForm {
  @IsString() name!: string;
  @IsInt() @Min(0) @Max(150) age!: number;
}

class Survey {
  @Tool({ description: 'Asks a form, then says it back', forms: [AgeForm] })
  async survey(ctx: Context) {
    const r = await ctx.elicit(AgeForm, 'Who are you?', { key: 'who' });
    return r.action === 'accept' ? `${r.content.name} is ${r.content.age}` : r.action;
  }
  @Tool({ description: 'Two questions in sequence' })
  async twice(ctx: Context) {
    const a = await ctx.confirm('First?', { key: 'first' });
    const b = await ctx.confirm('Second?', { key: 'second' });
    return `${a}/${b}`;
  }
}

let server: HttpServerHandle;
const MAX_REASKS = 2;
const caps = { 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };

beforeAll(async () => {
  const app = McpApplication.create({
    name: 'journal',
    version: '1.0.0',
    providers: [Survey],
    modules: [
      ContextServerModule.configure({ logger: silentLogger, requestStateKey: randomBytes(32), maxReasks: MAX_REASKS }),
    ],
  });
  server = await serveHttp(app, { port: 0 });
});
afterAll(() => server.close());

async function round(name: string, extra: Record<string, unknown> = {}) {
  const r = await modernPost(server.url, 1, 'tools/call', { name, arguments: {}, _meta: caps, ...extra });
  expect(r.status).toBe(200);
  return r.json().result;
}

describe('only what an ask used is sealed, trimmed to its fields', () => {
  test('answers for keys never asked, and junk beside content, do not grow the state', async () => {
    const first = await round('twice');
    const answer = { action: 'accept', content: { confirm: true } };
    const clean = await round('twice', { requestState: first.requestState, inputResponses: { first: answer } });
    const junk = 'x'.repeat(20_000);
    const dirty = await round('twice', {
      requestState: first.requestState,
      inputResponses: {
        first: { ...answer, content: { confirm: true, extra: junk }, junk },
        never_asked: junk,
        second: junk,
      },
    });
    expect(clean.resultType).toBe('input_required');
    expect(dirty.resultType).toBe('input_required');
    expect(Object.keys(dirty.inputRequests)).toEqual(['second']);
    // Same journal either way: the sealed states are the same size (fresh IVs/MACs differ, lengths do not).
    expect(dirty.requestState.length).toBe(clean.requestState.length);
    expect(dirty.requestState.length).toBeLessThan(2000);
  });

  test('answers sent without requestState are taken by key, and only the asked key is kept', async () => {
    const r = await round('twice', {
      inputResponses: { first: { action: 'accept', content: { confirm: false } }, other: 'y'.repeat(30_000) },
    });
    expect(r.resultType).toBe('input_required');
    expect(r.requestState.length).toBeLessThan(2000);
    const done = await round('twice', {
      requestState: r.requestState,
      inputResponses: { second: { action: 'accept', content: { confirm: true } } },
    });
    expect(done.content[0].text).toBe('false/true');
  });
});

describe('2026-07-28: an answer that fails the form', () => {
  test('is asked again with the reason, at most maxReasks times, then the tool fails naming it', async () => {
    let result = await round('survey');
    const bad = { action: 'accept', content: { name: 'Ada', age: 999 } };
    for (let reask = 1; reask <= MAX_REASKS; reask++) {
      result = await round('survey', { requestState: result.requestState, inputResponses: { who: bad } });
      expect(result.resultType).toBe('input_required');
      expect(result.inputRequests.who.params.message).toMatch(
        /^Who are you\?\n\n\(The previous answer was not accepted: .*age/,
      );
    }
    result = await round('survey', { requestState: result.requestState, inputResponses: { who: bad } });
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(/answers were invalid: .*age/);
  });

  test('a valid answer after a refused one completes, and the count starts again', async () => {
    const first = await round('survey');
    const refused = await round('survey', {
      requestState: first.requestState,
      inputResponses: { who: { action: 'accept', content: { name: 'Ada', age: -1 } } },
    });
    expect(refused.inputRequests.who.params.message).toContain('not accepted');
    const done = await round('survey', {
      requestState: refused.requestState,
      inputResponses: { who: { action: 'accept', content: { name: 'Ada', age: 36 } } },
    });
    expect(done.content[0].text).toBe('Ada is 36');
  });
});

test.each(['2026-07-28', '2025-11-25'] as const)('%s: a client whose answers stay invalid ends in a tool error naming the reason', async (protocolVersion) => {
  const seen: string[] = [];
  const client = await ContextClient.connect(
    { url: server.url },
    {
      protocolVersion,
      elicitation: (request) => {
        seen.push(String((request as { message?: string }).message));
        return { action: 'accept', content: { name: 'Ada', age: 'old' } };
      },
    },
  );
  const result = await client.callTool('survey', {});
  await client.close();
  expect(result.isError).toBe(true);
  expect((result.content as Array<{ text: string }>)[0]!.text).toMatch(/answers were invalid: .*age/);
  expect(seen).toHaveLength(MAX_REASKS + 1);
  expect(seen[0]).toBe('Who are you?');
  expect(seen[1]).toMatch(/The previous answer was not accepted: .*age/);
});
