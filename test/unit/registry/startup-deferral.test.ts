/**
 * Start-up checks every DTO and builds none of their JSON Schemas (issue 38): the metadata is read once,
 * at start-up, and each schema is built from it on first use (the first list page that shows the tool,
 * or its first call), once. A DTO mistake still stops start-up. Counted, not timed.
 */
import 'reflect-metadata';
import { IsInt, IsOptional, IsString, MaxLength, Min, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import { Field, FrameworkError, Tool } from '../../../src';
import * as dtoCheck from '../../../src/schema/dto-check';
import * as dtoShapeKey from '../../../src/schema/dto-shape-key';
import * as propertyFacts from '../../../src/schema/property-facts';
import { makeApp, MemoryClient } from '../../helpers/apps';

/**
 * `n` tools, each with its own three-field DTO (ten per class): of one shape, or (`distinct`) each of its
 * own (DTOs of one shape are checked once, test/unit/schema/dto-shape.test.ts).
 */
function generatedProviders(n: number, prefix: string, distinct = false): Function[] {
  const providers: Function[] = [];
  for (let i = 0; i < n; i++) {
    const name = `${prefix}_${i}`;
    const Args = class {};
    const field = (key: string, type: Function, decorators: PropertyDecorator[]) => {
      for (const d of decorators) d(Args.prototype, key);
      Reflect.defineMetadata('design:type', type, Args.prototype, key);
    };
    field('text', String, [IsString(), MaxLength(distinct ? 1000 + i : 200)]);
    field('count', Number, [IsOptional(), IsInt(), Min(0)]);
    field('label', String, [IsOptional(), IsString()]);
    if (i % 10 === 0) providers.push(class {});
    const cls = providers[providers.length - 1]!;
    (cls.prototype as Record<string, unknown>)[name] = (args: { text: string }) => `${name}:${args.text}`;
    Reflect.defineMetadata('design:paramtypes', [Args], cls.prototype, name);
    Tool({ description: name })(cls.prototype, name, Object.getOwnPropertyDescriptor(cls.prototype, name)!);
  }
  return providers;
}

async function listAll(client: MemoryClient): Promise<{ name: string; inputSchema: { properties: object } }[]> {
  const tools: { name: string; inputSchema: { properties: object } }[] = [];
  for (let cursor: string | undefined, first = true; first || cursor; first = false) {
    const page = await client.request('tools/list', cursor === undefined ? {} : { cursor });
    tools.push(...(page.tools as typeof tools));
    cursor = page.nextCursor as string | undefined;
  }
  return tools;
}

describe('start-up checks DTOs and defers their schemas', () => {
  afterEach(() => jest.restoreAllMocks());

  it('reads each DTO once at start-up, builds no schema until a list shows it, then builds each once', async () => {
    const described = jest.spyOn(propertyFacts, 'describeDtoProperties');
    const built = jest.spyOn(dtoCheck, 'describedFacts'); // the schema builder's one call per DTO it builds
    const n = 300;
    const app = makeApp(generatedProviders(n, 'lazy', true), { pageSize: 100 });
    expect(described).toHaveBeenCalledTimes(n);
    expect(built).toHaveBeenCalledTimes(0);

    const client = await MemoryClient.connect(app, { era: 'modern' });
    const firstPage = await client.request('tools/list', {});
    expect((firstPage.tools as unknown[]).length).toBe(100);
    expect(built).toHaveBeenCalledTimes(100); // only the tools on that page

    const tools = await listAll(client);
    expect(tools).toHaveLength(n);
    expect(built).toHaveBeenCalledTimes(n);
    expect(Object.keys(tools[n - 1]!.inputSchema.properties)).toEqual(['text', 'count', 'label']);

    // Calls and later lists reuse what was built; the check's facts were handed over, not read again.
    const called = await client.request('tools/call', { name: 'lazy_7', arguments: { text: 'hi' } });
    expect(called.isError).toBeFalsy();
    const refused = await client.request('tools/call', { name: 'lazy_8', arguments: { text: 7 } });
    expect(refused.isError).toBe(true);
    await listAll(client);
    expect(built).toHaveBeenCalledTimes(n);
    expect(described).toHaveBeenCalledTimes(n);
    await client.close();
  });

  it('reads a shape once however many DTOs have it, and lists and calls each', async () => {
    const described = jest.spyOn(propertyFacts, 'describeDtoProperties');
    const shaped = jest.spyOn(dtoShapeKey, 'dtoShape');
    const n = 300;
    const app = makeApp(generatedProviders(n, 'shaped'), { pageSize: 100 });
    expect(described).toHaveBeenCalledTimes(1);
    expect(shaped).toHaveBeenCalledTimes(n);
    const client = await MemoryClient.connect(app, { era: 'modern' });
    const tools = await listAll(client);
    expect(tools.map((t) => t.name)).toEqual(Array.from({ length: n }, (_, i) => `shaped_${i}`));
    for (const tool of tools) expect(Object.keys(tool.inputSchema.properties)).toEqual(['text', 'count', 'label']);
    const called = await client.request('tools/call', { name: 'shaped_299', arguments: { text: 'hi' } });
    expect(called.content).toEqual([{ type: 'text', text: 'shaped_299:hi' }]);
    const refused = await client.request('tools/call', { name: 'shaped_5', arguments: { text: 'hi', count: -1 } });
    expect(refused.isError).toBe(true);
    expect(described).toHaveBeenCalledTimes(1);
    // A DTO of a shared shape keeps no facts of its own; its outline hands them to the builder (no new walk).
    expect(shaped).toHaveBeenCalledTimes(n);
    await client.close();
  });

  it('a first call builds its tool schema without a list', async () => {
    const built = jest.spyOn(dtoCheck, 'describedFacts');
    const app = makeApp(generatedProviders(20, 'called'));
    const client = await MemoryClient.connect(app, { era: 'modern' });
    expect(built).toHaveBeenCalledTimes(0);
    const result = await client.request('tools/call', { name: 'called_3', arguments: { text: 'x', count: 2 } });
    expect(result.isError).toBeFalsy();
    expect(built).toHaveBeenCalledTimes(1);
    await client.close();
  });
});

describe('a DTO mistake still stops start-up, not the first list or call', () => {
  function startupError(providers: Function[]): FrameworkError {
    const built = jest.spyOn(dtoCheck, 'describedFacts');
    try {
      makeApp(providers);
    } catch (error) {
      expect(error).toBeInstanceOf(FrameworkError);
      expect(built).not.toHaveBeenCalled(); // found by the check, without building a schema
      built.mockRestore();
      return error as FrameworkError;
    }
    throw new Error('expected start-up to fail');
  }

  it('a nested DTO whose property has no type', () => {
    class Inner {
      @IsOptional()
      note!: unknown;
    }
    class Outer {
      @ValidateNested()
      @Type(() => Inner)
      inner!: Inner;
    }
    class Tools {
      @Tool({ description: 'nests' })
      nest(args: Outer) {
        return args;
      }
    }
    const error = startupError([Tools]);
    expect(error.code).toBe('OMC_SCHEMA_UNSUPPORTED');
    expect(error.detail).toContain('Tools.nest: Inner.note: its type cannot be told');
  });

  it('an undecorated field beside decorated ones', () => {
    class Args {
      @IsString()
      name!: string;
      extra = 'left out';
    }
    class Tools {
      @Tool({ description: 'greets' })
      greet(args: Args) {
        return args.name;
      }
    }
    expect(startupError([Tools]).detail).toContain('Tools.greet: Args.extra: this field has no decorator');
  });

  it('an x-mcp-header on a property that cannot carry one (the only schema built at start-up)', () => {
    class Args {
      @Field({ mcpHeader: 'Region' })
      @IsInt({ each: true })
      regions!: number[];
    }
    class Tools {
      @Tool({ description: 'headers' })
      pick(args: Args) {
        return args.regions;
      }
    }
    let error: unknown;
    try {
      makeApp([Tools]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(FrameworkError);
    expect((error as FrameworkError).code).toBe('OMC_INVALID_MCP_HEADER');
  });

  it('an ask fallback whose argument the DTO already has', () => {
    class Args {
      @IsString()
      approvalId!: string;
    }
    class Tools {
      @Tool({ description: 'asks', asks: { kinds: ['elicit'], fallback: 'approvalPage' } })
      ask(args: Args) {
        return args.approvalId;
      }
    }
    const { detail } = startupError([Tools]);
    expect(detail).toContain('Tools.ask: the tool\'s arguments already have a property "approvalId"');
  });
});
