/**
 * Issue 16, hostile and malformed input on guarded handlers: odd names, bad cursors, oversized and
 * prototype-polluting arguments, guards that throw odd values or hang around lists; the server keeps
 * serving afterwards and never reveals a hidden item.
 */
import { IsString } from 'class-validator';
import { injectable } from 'tsyringe';
import {
  Context,
  ContextServerModule,
  McpApplication,
  Tool,
  UseGuards,
  type CanActivate,
  type ExecutionContext,
} from '../../../../src';
import { recordingLogger, MemoryClient } from '../../../helpers/apps';

class Args {
  @IsString() text!: string;
}

class Staff implements CanActivate {
  canActivate(ctx: ExecutionContext) {
    return ctx.principal?.id === 'staff';
  }
}

class ThrowsOdd implements CanActivate {
  canActivate(ctx: ExecutionContext): boolean {
    if (ctx.phase === 'list') throw new Error('list-time failure');
    throw 'a string, not an Error';
  }
}

class Tools {
  @Tool({ description: 'guarded echo', input: Args })
  @UseGuards(Staff)
  secret(args: Args) {
    return args.text;
  }
  @Tool({ description: 'its guard throws' })
  @UseGuards(ThrowsOdd)
  odd() {
    return 'never';
  }
  @Tool({ description: 'open' })
  open() {
    return 'open';
  }
}

const logger = recordingLogger();
const app = McpApplication.create({
  name: 'hostile',
  version: '1.0.0',
  providers: [Tools],
  modules: [ContextServerModule.configure({ logger })],
});

describe.each(['modern', 'legacy'] as const)('%s', (era) => {
  test('a refused caller cannot probe a hidden tool through invalid or hostile arguments', async () => {
    const c = await MemoryClient.connect(app, { era, principal: { id: 'guest' } });
    const hostile: unknown[] = [
      { text: 1 },
      JSON.parse('{"__proto__": {"polluted": true}, "text": "x"}'),
      { constructor: { prototype: { polluted: true } } },
      { text: 'x'.repeat(200_000) },
    ];
    for (const args of hostile) {
      const r = await c.raw('tools/call', { name: 'secret', arguments: args as never });
      expect(r).toMatchObject({ error: { code: -32602, message: 'Unknown tool: secret' } });
    }
    expect(await c.raw('tools/call', { name: 'secret', arguments: 'nope' as never })).toMatchObject({
      error: { code: -32602 },
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // Names that are not strings or look like prototype keys are just unknown.
    for (const name of ['__proto__', 'constructor', 'secret ', 'SECRET']) {
      expect(await c.raw('tools/call', { name })).toMatchObject({ error: { code: -32602 } });
    }
    expect(await c.raw('tools/call', { name: 42 as never })).toMatchObject({ error: { code: -32602 } });
    expect(await c.request('tools/call', { name: 'open' })).toMatchObject({ content: [{ text: 'open' }] });
  });

  test('an allowed caller with invalid arguments gets the argument error', async () => {
    const c = await MemoryClient.connect(app, { era, principal: { id: 'staff' } });
    const r = await c.request('tools/call', { name: 'secret', arguments: { text: 1 } });
    expect(r).toMatchObject({ isError: true });
    expect(await c.request('tools/call', { name: 'secret', arguments: { text: 'hi' } })).toMatchObject({
      content: [{ text: 'hi' }],
    });
  });

  test('bad cursors on a guarded list are refused; a guard that throws hides its tool and is logged', async () => {
    const c = await MemoryClient.connect(app, { era, principal: { id: 'staff' } });
    for (const cursor of ['x', 'o:zz', 42, { a: 1 }, 'A'.repeat(100)]) {
      expect(await c.raw('tools/list', { cursor: cursor as never })).toMatchObject({ error: { code: -32602 } });
    }
    const names = ((await c.request('tools/list')).tools as { name: string }[]).map((t) => t.name);
    expect(names).toEqual(['secret', 'open']);
    expect(logger.lines.some((l) => l.message.includes('Tools.odd') && l.message.includes('threw while listing'))).toBe(
      true,
    );
  });

  test('a guard that throws a non-Error in a call: a tool error, and the server keeps serving', async () => {
    const c = await MemoryClient.connect(app, { era, principal: { id: 'staff' } });
    expect(await c.request('tools/call', { name: 'odd' })).toMatchObject({
      isError: true,
      content: [{ text: 'a string, not an Error' }],
    });
    expect(await c.request('tools/call', { name: 'open' })).toMatchObject({ content: [{ text: 'open' }] });
  });
});

describe.each(['modern', 'legacy'] as const)('%s: a request-scoped guard (Context in its constructor)', (era) => {
  @injectable()
  class ByContext implements CanActivate {
    constructor(private readonly ctx: Context) {}
    canActivate() {
      return this.ctx.principal?.id === 'staff';
    }
  }
  class Scoped {
    @Tool({ description: 'scoped', input: Args })
    @UseGuards(ByContext)
    scoped(args: Args) {
      return args.text;
    }
  }
  const scopedApp = McpApplication.create({
    name: 'scoped',
    version: '1.0.0',
    providers: [Scoped],
    modules: [ContextServerModule.configure({ logger: recordingLogger() })],
  });

  test('decides lists, invalid-argument answers and calls alike', async () => {
    const staff = await MemoryClient.connect(scopedApp, { era, principal: { id: 'staff' } });
    const guest = await MemoryClient.connect(scopedApp, { era, principal: { id: 'guest' } });
    expect((await staff.request('tools/list')).tools).toHaveLength(1);
    expect((await guest.request('tools/list')).tools).toHaveLength(0);
    const invalid = await staff.request('tools/call', { name: 'scoped', arguments: { text: 1 } });
    expect(invalid).toMatchObject({ isError: true });
    expect(await guest.raw('tools/call', { name: 'scoped', arguments: { text: 1 } })).toMatchObject({
      error: { message: 'Unknown tool: scoped' },
    });
    expect(await staff.request('tools/call', { name: 'scoped', arguments: { text: 'hi' } })).toMatchObject({
      content: [{ text: 'hi' }],
    });
  });
});
