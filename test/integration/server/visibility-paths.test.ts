/**
 * One visibility check for every way in (issue 31, N7 and the "every path" rule). The methods are
 * read from the server's own method table, per era: each must either have a probe here showing that
 * a caller the guards refuse gets exactly what an unknown name gets (or an item-free answer), or be
 * listed as revealing no item, with the reason. A new method without either fails this test; and
 * the dispatchers answer only what that table lists (a method outside it is -32601).
 */
import { IsString } from 'class-validator';
import {
  Complete,
  Field,
  Prompt,
  Resource,
  ResourceTemplate,
  Tool,
  UseGuards,
  type CanActivate,
  type ExecutionContext,
} from '../../../src';
import type { ContextServer } from '../../../src/server/context-server';
import { makeApp, MemoryClient } from '../../helpers/apps';

class NotMallory implements CanActivate {
  canActivate(ctx: ExecutionContext): boolean {
    return ctx.principal?.id !== 'mallory';
  }
}

class Topic {
  @IsString() @Field() topic!: string;
}

@UseGuards(new NotMallory())
class Hidden {
  @Tool({ description: 'secret tool', task: 'optional' })
  secret(args: Topic) {
    return `secret ${args.topic}`;
  }
  @Prompt({ description: 'secret prompt' })
  plan(args: Topic) {
    return `plan ${args.topic}`;
  }
  @Complete({ prompt: 'plan', argument: 'topic' })
  topics() {
    return ['alpha', 'beta'];
  }
  @Resource({ uri: 'hidden://doc', mimeType: 'text/plain' })
  doc() {
    return 'doc';
  }
  @ResourceTemplate({ uriTemplate: 'hidden://items/{id}', mimeType: 'text/plain' })
  item(vars: { id: string }) {
    return `item ${vars.id}`;
  }
}

const app = makeApp([Hidden]);
const caps = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

type Client = Awaited<ReturnType<typeof MemoryClient.connect>>;
type Answer = Awaited<ReturnType<Client['raw']>>;

/** An answer with the names taken out, so a hidden item's answer can be compared with an unknown one's. */
function shape(a: Answer, ...names: string[]): string {
  let text = JSON.stringify('error' in a ? { error: a.error } : { result: a.result });
  for (const n of names) text = text.split(n).join('<name>');
  return text;
}

/**
 * The refused caller's answer about the hidden item and about a made-up one must match; the allowed
 * caller's must not (the control: the probe can tell them apart).
 */
async function same(
  [c, ada]: [Client, Client],
  method: string,
  hidden: Record<string, unknown>,
  unknown: Record<string, unknown>,
  names: string[],
) {
  expect(shape(await c.raw(method, hidden), ...names)).toBe(shape(await c.raw(method, unknown), ...names));
  expect(shape(await ada.raw(method, hidden), ...names)).not.toBe(shape(await ada.raw(method, unknown), ...names));
}

const listed = (a: Answer) => JSON.stringify('result' in a ? a.result : a);

const probes: Record<string, (c: Client, ada: Client) => Promise<void>> = {
  'tools/list': async (c, ada) => {
    expect(listed(await c.raw('tools/list', {}))).not.toContain('secret');
    expect(listed(await ada.raw('tools/list', {}))).toContain('secret');
  },
  'prompts/list': async (c, ada) => {
    expect(listed(await c.raw('prompts/list', {}))).not.toContain('plan');
    expect(listed(await ada.raw('prompts/list', {}))).toContain('plan');
  },
  'resources/list': async (c, ada) => {
    expect(listed(await c.raw('resources/list', {}))).not.toContain('hidden://doc');
    expect(listed(await ada.raw('resources/list', {}))).toContain('hidden://doc');
  },
  'resources/templates/list': async (c, ada) => {
    expect(listed(await c.raw('resources/templates/list', {}))).not.toContain('hidden://items');
    expect(listed(await ada.raw('resources/templates/list', {}))).toContain('hidden://items');
  },
  'tools/call': async (c, ada) => {
    const call = (name: string, topic: unknown) => ({ name, arguments: { topic } });
    const names = ['secret', 'nosuch'];
    await same([c, ada], 'tools/call', call('secret', 'x'), call('nosuch', 'x'), names);
    // Bad arguments too: an argument error would tell the tool exists.
    await same([c, ada], 'tools/call', call('secret', 1), call('nosuch', 1), names);
  },
  'prompts/get': async (c, ada) => {
    const get = (name: string) => ({ name, arguments: { topic: 'x' } });
    await same([c, ada], 'prompts/get', get('plan'), get('nosuch'), ['plan', 'nosuch']);
  },
  'resources/read': async (c, ada) => {
    await same([c, ada], 'resources/read', { uri: 'hidden://doc' }, { uri: 'nosuch://doc' }, ['hidden://doc', 'nosuch://doc']);
    await same([c, ada], 'resources/read', { uri: 'hidden://items/1' }, { uri: 'nosuch://items/1' }, [
      'hidden://items/1',
      'nosuch://items/1',
    ]);
  },
  'completion/complete': async (c, ada) => {
    const ref = (name: string) => ({ ref: { type: 'ref/prompt', name }, argument: { name: 'topic', value: 'a' } });
    await same([c, ada], 'completion/complete', ref('plan'), ref('nosuch'), ['plan', 'nosuch']);
  },
  'resources/subscribe': async (c, ada) => {
    await same([c, ada], 'resources/subscribe', { uri: 'hidden://doc' }, { uri: 'nosuch://doc' }, ['hidden://doc', 'nosuch://doc']);
  },
};

/** Methods that name no tool, prompt or resource, and why they cannot reveal one. */
const revealNoItem: Record<string, string> = {
  initialize: 'capabilities and identity only',
  'server/discover': 'capabilities and identity only',
  ping: 'empty result',
  'logging/setLevel': 'the session log level',
  'resources/unsubscribe': 'answers {} for any URI, subscribed or not',
  'subscriptions/listen': 'echoes the filter; its updates are checked per URI (transports/http/listen-guards.test.ts)',
  'tasks/get': 'tasks are addressed by their 144-bit id and answered to their owner only (tasks.test.ts)',
  'tasks/update': 'as tasks/get',
  'tasks/cancel': 'as tasks/get',
};

const server = app.endpoint as ContextServer;

describe.each(['modern', 'legacy'] as const)('%s', (era) => {
  const methods = server.methods[era];

  test('every method of the table has a probe or a reason', () => {
    const uncovered = methods.filter((m) => !(m in probes) && !(m in revealNoItem));
    expect(uncovered).toEqual([]);
  });

  test('the table is what the dispatcher answers: each method in it is served, one outside it is -32601', async () => {
    const c = await MemoryClient.connect(app, { era, capabilities: caps, principal: { id: 'ada' } });
    // A listen opens a stream rather than answering (the listen-stream tests cover it).
    for (const m of methods.filter((name) => name !== 'subscriptions/listen')) {
      const answer = await c.raw(m, {});
      expect('error' in answer ? answer.error.code : 'served').not.toBe(-32601);
    }
    for (const m of ['nosuch/method', 'constructor', 'tasks/list', era === 'modern' ? 'ping' : 'server/discover']) {
      const answer = await c.raw(m, {});
      expect('error' in answer ? answer.error.code : 'served').toBe(-32601);
    }
  });

  test.each(methods.filter((m) => m in probes))('%s: a refused caller learns nothing of a hidden item', async (m) => {
    const mallory = await MemoryClient.connect(app, { era, capabilities: caps, principal: { id: 'mallory' } });
    const ada = await MemoryClient.connect(app, { era, capabilities: caps, principal: { id: 'ada' } });
    await probes[m]!(mallory, ada);
  });
});
