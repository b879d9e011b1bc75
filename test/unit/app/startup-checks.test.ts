/** Mistakes that used to fail every call (or pass silently) now stop start-up, naming the class or method. */
import { IsInt, IsOptional, IsString } from 'class-validator';
import {
  Context,
  FrameworkError,
  inject,
  injectable,
  McpApplication,
  Prompt,
  ResourceTemplate,
  Tool,
} from '../../../src';
import { MemoryClient } from '../../helpers/apps';

function startup(providers: Parameters<typeof McpApplication.create>[0]['providers']) {
  return () => McpApplication.create({ name: 'checks', version: '1.0.0', providers });
}

function failure(run: () => unknown): FrameworkError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(FrameworkError);
    return error as FrameworkError;
  }
  throw new Error('expected start-up to fail');
}

class Clock {
  now() {
    return 'noon';
  }
}

describe('a provider with constructor parameters but no @injectable()', () => {
  class Greeter {
    constructor(private readonly clock: Clock) {}
    @Tool({ description: 'greets' })
    greet() {
      return `hello at ${this.clock.now()}`;
    }
  }
  class Mailer {
    constructor(readonly host: string) {}
  }
  @injectable()
  class UsesMailer {
    constructor(readonly mailer: Mailer) {}
    @Tool({ description: 'mails' })
    mail() {
      return this.mailer.host;
    }
  }
  @injectable()
  class Base {
    constructor(readonly clock: Clock) {}
  }
  class Derived extends Base {
    @Tool({ description: 'inherits a constructor' })
    time() {
      return this.clock.now();
    }
  }

  it('a tool class fails naming the class', () => {
    const error = failure(startup([Greeter, Clock]));
    expect(error.code).toBe('OMC_NOT_INJECTABLE');
    expect(error.message).toContain('Greeter: its constructor takes 1 parameter but the class has no @injectable()');
  });

  it('a service listed in providers fails too', () => {
    expect(failure(startup([Mailer])).message).toContain('Mailer: its constructor takes 1 parameter');
  });

  it('a dependency the container would build fails naming who needs it', () => {
    const error = failure(startup([UsesMailer]));
    expect(error.code).toBe('OMC_NOT_INJECTABLE');
    expect(error.message).toContain('Mailer (needed by UsesMailer): its constructor takes 1 parameter');
  });

  it('a dependency provided by value is the container\'s business', async () => {
    const app = startup([UsesMailer, { provide: Mailer, useValue: new Mailer('smtp.example') }])();
    const client = await MemoryClient.connect(app, { era: 'modern' });
    expect(await client.request('tools/call', { name: 'mail', arguments: {} })).toMatchObject({
      content: [{ type: 'text', text: 'smtp.example' }],
    });
  });

  it('an undecorated subclass of an injectable class fails (it inherits the parameters, not the injection)', () => {
    expect(failure(startup([Derived])).message).toContain('Derived: its constructor takes 1 parameter');
  });
});

describe('a constructor parameter the container cannot resolve', () => {
  interface Settings {
    region: string;
  }
  const SETTINGS = Symbol('settings');
  @injectable()
  class Untyped {
    constructor(readonly settings: Settings) {}
    @Tool({ description: 'x' })
    region() {
      return this.settings.region;
    }
  }
  @injectable()
  class Injected {
    constructor(
      @inject(SETTINGS) readonly settings: Settings,
      readonly clock: Clock,
      readonly ctx: Context,
    ) {}
    @Tool({ description: 'x' })
    region() {
      return `${this.settings.region} ${this.clock.now()} ${this.ctx.method}`;
    }
  }

  @injectable()
  class Named {
    constructor(
      readonly cache: Map<string, string>,
      readonly name: string,
    ) {}
  }

  it('a primitive parameter without @inject fails; a built-in the container can build (Map) does not', () => {
    const error = failure(startup([Named]));
    expect(error.code).toBe('OMC_UNRESOLVABLE_DEPENDENCY');
    expect(error.message).toContain('Named: constructor parameter 2 has no class type');
  });

  it('an interface-typed parameter without @inject fails naming class and position', () => {
    const error = failure(startup([Untyped]));
    expect(error.code).toBe('OMC_UNRESOLVABLE_DEPENDENCY');
    expect(error.message).toContain('Untyped: constructor parameter 1 has no class type');
  });

  it('@inject(token), a class dependency and the Context are fine, and the call works', async () => {
    const app = startup([Injected, { provide: SETTINGS, useValue: { region: 'eu' } }])();
    const client = await MemoryClient.connect(app, { era: 'legacy' });
    expect(await client.request('tools/call', { name: 'region', arguments: {} })).toMatchObject({
      content: [{ type: 'text', text: 'eu noon tools/call' }],
    });
  });
});

describe('a handler parameter that nothing supplies', () => {
  class Args {
    @IsString() name!: string;
  }
  class PrimitiveTool {
    @Tool({ description: 'x' })
    greet(name: string) {
      return `hi ${name}`;
    }
  }
  class TwoInputs {
    @Tool({ description: 'x' })
    greet(a: Args, b: Args) {
      return `${a.name}${b.name}`;
    }
  }
  class PrimitivePrompt {
    @Prompt({ description: 'x' })
    plan(ctx: Context, topic: string) {
      return `${ctx.method} ${topic}`;
    }
  }
  class PrimitiveTemplate {
    @ResourceTemplate({ uriTemplate: 'test://items/{id}' })
    item(id: string) {
      return id;
    }
  }
  class Fine {
    @Tool({ description: 'x' })
    greet(args: Args, ctx: Context, signal: AbortSignal) {
      return `hi ${args.name} ${ctx.method} ${signal.aborted}`;
    }
    @ResourceTemplate({ uriTemplate: 'test://items/{id}' })
    item({ id }: { id: string }, ctx: Context) {
      return `${id} ${ctx.method}`;
    }
  }

  it.each([
    [
      PrimitiveTool,
      'PrimitiveTool.greet: parameter 1 is typed as a string, which nothing supplies; a tool receives its arguments as one DTO class',
    ],
    [TwoInputs, 'TwoInputs.greet: parameters 1 and 2 would all receive the same input'],
    [
      PrimitivePrompt,
      'PrimitivePrompt.plan: parameter 2 is typed as a string, which nothing supplies; a prompt receives its arguments as one DTO class',
    ],
    [
      PrimitiveTemplate,
      'PrimitiveTemplate.item: parameter 1 is typed as a string, which nothing supplies; a resource template receives its variables as one object',
    ],
  ])('%p fails naming the method', (cls, says) => {
    const error = failure(startup([cls]));
    expect(error.code).toBe('OMC_UNSUPPORTED_PARAMETER');
    expect(error.message).toContain(says);
  });

  it('the DTO, the Context, the signal and a variables object are supplied', async () => {
    const client = await MemoryClient.connect(startup([Fine])(), { era: 'modern' });
    expect(await client.request('tools/call', { name: 'greet', arguments: { name: 'Ada' } })).toMatchObject({
      content: [{ type: 'text', text: 'hi Ada tools/call false' }],
    });
    expect(await client.request('resources/read', { uri: 'test://items/7' })).toMatchObject({
      contents: [{ text: '7 resources/read' }],
    });
  });
});

describe('DTO and provider mistakes named at start-up', () => {
  it('a DTO whose fields have no decorator fails naming the field (useDefineForClassFields leaves them as undefined)', () => {
    class Undecorated {
      name: string | undefined = undefined;
    }
    class Tools {
      @Tool({ description: 'x', input: Undecorated })
      run() {
        return 'x';
      }
    }
    expect(failure(startup([Tools])).message).toMatch(/Undecorated\.name: Undecorated has fields but no decorated property/);
  });

  it('one undecorated field among decorated ones fails naming it (it would drop out of the schema)', () => {
    class Booking {
      @IsString() flight!: string;
      @IsOptional() @IsInt() seats = 1;
      note: string | undefined = undefined;
    }
    class Tools {
      @Tool({ description: 'x', input: Booking })
      run() {
        return 'x';
      }
    }
    const error = failure(startup([Tools]));
    expect(error.code).toBe('OMC_SCHEMA_UNSUPPORTED');
    expect(error.message).toMatch(/Tools\.run: Booking\.note: this field has no decorator, so it is not in the input schema/);
    expect(error.message).toContain('@IsOptional() for an optional one');
    // Decorated, the same class starts.
    class Fixed {
      @IsString() flight!: string;
      @IsOptional() @IsInt() seats = 1;
      @IsOptional() @IsString() note: string | undefined = undefined;
    }
    class FixedTools {
      @Tool({ description: 'x', input: Fixed })
      run() {
        return 'x';
      }
    }
    expect(() => startup([FixedTools])()).not.toThrow();
  });

  it('a class with no field takes no arguments: {} is accepted, anything else refused', async () => {
    class Nothing {}
    class Tools {
      @Tool({ description: 'x', input: Nothing })
      run() {
        return 'ran';
      }
    }
    const app = McpApplication.create({ name: 'checks', version: '1.0.0', providers: [Tools] });
    const client = await MemoryClient.connect(app, { era: 'modern' });
    const call = (args: object) => client.request('tools/call', { name: 'run', arguments: args });
    expect(await call({})).toMatchObject({ content: [{ type: 'text', text: 'ran' }] });
    const refused = (await call({ extra: 1 })) as { isError?: boolean; content?: unknown };
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toMatch(/property extra should not exist/);
  });

  it('a class listed twice in providers says so', () => {
    class Twice {
      @Tool({ description: 'x' })
      ping() {
        return 'pong';
      }
    }
    expect(failure(startup([Twice, Twice])).message).toMatch(/Twice is listed twice in providers; list each class once/);
  });
});
