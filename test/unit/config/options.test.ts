/**
 * One options model: one definition per option, unknown keys refused with a suggestion, every message names its field.
 */
import {
  ContextServerModule,
  McpApplication,
  Resource,
  ResourceTemplate,
  createNodeHandler,
  serveHttp,
  serveStdio,
} from '../../../src';
import { resolveClientOptions } from '../../../src/client/options';
import { validateHttpOptions } from '../../../src/transports/http/http-options';
import { resolveRequestStateOptions } from '../../../src/state';
import { refusal } from '../../helpers/options-refusal';

/** The `- field: message` lines of a refusal. */
function lines(message: string): string[] {
  return message.split('\n').slice(1).map((l) => l.replace(/^\s*- /, ''));
}

const app = (extra: object = {}) => McpApplication.create({ name: 'opts', version: '1.0.0', providers: [], ...extra });

describe('unknown keys are refused with a "did you mean"', () => {
  it.each([
    [
      'ContextServerModule.configure',
      () => ContextServerModule.configure({ requestStateKeys: 'x' } as object),
      'requestStateKeys: unknown option; did you mean "requestStateKey"?',
    ],
    [
      'ContextServerModule.configure (case)',
      () => ContextServerModule.configure({ pagesize: 10 } as object),
      'pagesize: unknown option; did you mean "pageSize"?',
    ],
    [
      'a nested option',
      () => ContextServerModule.configure({ listCache: { ttl: 5 } } as object),
      'listCache.ttl: unknown option; did you mean "ttlMs"?',
    ],
    ['McpApplication.create', () => app({ provider: [] }), 'provider: unknown option; did you mean "providers"?'],
    [
      'HttpOptions',
      () => validateHttpOptions({ maxBodySize: 10 } as object),
      'maxBodySize: unknown option; did you mean "maxBodyBytes"?',
    ],
    [
      'ContextClientOptions',
      () => resolveClientOptions({ maxInputRound: 3 } as object),
      'maxInputRound: unknown option; did you mean "maxInputRounds"?',
    ],
    [
      'ClientInfoOptions',
      () => resolveClientOptions({ clientInfo: { nmae: 'x' } } as object),
      'clientInfo.nmae: unknown option; did you mean "name"?',
    ],
  ])('%s', (_where, run, says) => {
    expect(lines(refusal(run))).toContain(says);
  });

  it('lists the known options when nothing is close', () => {
    const message = refusal(() => validateHttpOptions({ zzzzzzzz: 1 } as object));
    expect(message).toMatch(/zzzzzzzz: unknown option; known options are path, host, port, .*maxBodyBytes/);
  });

  it('StdioOptions too, before touching stdin', async () => {
    await expect(serveStdio(app(), { maxFrameByte: 10 } as object)).rejects.toThrow(
      /maxFrameByte: unknown option; did you mean "maxFrameBytes"\?/,
    );
    await expect(serveStdio(app(), { maxFrameBytes: 10 })).rejects.toThrow(
      /maxFrameBytes: must not be less than 1024 \(got 10\)/,
    );
  });

  it('refuses before serving: serveHttp and createNodeHandler', async () => {
    await expect(serveHttp(app(), { port: 0, hots: 'x' } as object)).rejects.toThrow(
      /hots: unknown option; did you mean "host"\?/,
    );
    expect(() => createNodeHandler(app(), Object.freeze({ pth: '/x' }) as object)).toThrow(
      /pth: unknown option; did you mean "path"\?/,
    );
  });
});

describe('each message names the field that is wrong', () => {
  it('an empty server name is a name problem, not a requestStateAudience one', () => {
    const message = refusal(() => app({ name: '' }));
    expect(lines(message)).toEqual(['name: must not be empty; clients show it and requestState is bound to it']);
    expect(message).not.toContain('requestStateAudience');
  });

  it.each([
    [{ version: 3 }, 'version: must be a string, e.g. "1.0.0" (got 3)'],
    [{ providers: [42] }, 'providers: must list classes or { provide, useValue | useClass | useFactory } objects'],
    [{ modules: [{}] }, 'modules: must list configuration modules, e.g. ContextServerModule.configure({...})'],
  ])('McpApplication.create %p', (extra, says) => {
    expect(lines(refusal(() => app(extra)))).toEqual([says]);
  });

  it.each([
    [{ pageSize: 0 }, 'pageSize: must not be less than 1 (got 0)'],
    [{ listCache: { ttlMs: -1 } }, 'listCache.ttlMs: must not be less than 0 (got -1)'],
    [{ listCache: 5 }, 'listCache: must be an object of CacheHintOptions (ttlMs, cacheScope)'],
    [{ authenticate: 'yes' }, 'authenticate: must be a function'],
    [{ logger: console.log }, 'logger: must be an object with warn() and error()'],
    [{ requestStateKey: 'short' }, 'requestStateKey: is neither hex nor canonical base64/base64url'],
  ])('ContextServerModule.configure %p', (input, says) => {
    const found = lines(refusal(() => ContextServerModule.configure(input as object)));
    expect(found).toHaveLength(1);
    expect(found[0]).toContain(says);
  });

  it('never echoes a string value (it may be a key)', () => {
    const message = refusal(() =>
      ContextServerModule.configure({ requestStateKey: 'hunter2-not-a-key', instructions: 7 as never }),
    );
    expect(message).not.toContain('hunter2');
    expect(lines(message)).toContain('instructions: must be a string (got 7)');
  });

  it('names every problem in one error', () => {
    const found = lines(
      refusal(() =>
        ContextServerModule.configure({ pageSize: 0, maxReasks: 11, requestStateLifetime: 0, typo: 1 } as object),
      ),
    );
    expect(found.map((l) => l.split(':')[0])).toEqual(
      expect.arrayContaining(['typo', 'pageSize', 'maxReasks', 'requestStateLifetime']),
    );
  });
});

describe('one definition per option', () => {
  it.each([
    [{ requestStateLifetime: 86_401 }],
    [{ maxRequestStateBytes: 4 * 1024 * 1024 + 1 }],
    [{ requestStateAudience: '' }],
    [{ singleUseStore: { claim: () => true } }],
    [{ requestStateLifetime: 600, maxFlowLifetime: 300 }],
    [{ requestStateKey: Buffer.alloc(8, 7) }],
  ])('the server module and the requestState codec refuse %p with the same words', (input) => {
    const server = lines(refusal(() => ContextServerModule.configure(input)));
    const state = lines(refusal(() => resolveRequestStateOptions(input)));
    expect(server).toEqual(state);
    expect(server.length).toBeGreaterThan(0);
  });

  it('a valid configuration still starts an app that answers', async () => {
    const configured = app({ modules: [ContextServerModule.configure({ pageSize: 10, listCache: { ttlMs: 5 } })] });
    expect(configured.options.pageSize).toBe(10);
    expect(configured.options.listCache).toEqual({ ttlMs: 5, cacheScope: 'private' });
    expect(Object.isFrozen(configured.options.listCache)).toBe(true);
  });
});

describe('a resource\'s cache hints use the same definition as listCache/readCache', () => {
  class BadTtl {
    @Resource({ uri: 'test://bad', cache: { ttlMs: -1, cacheScope: 'private' } })
    doc() {
      return 'x';
    }
  }
  class Typo {
    @ResourceTemplate({ uriTemplate: 'test://{id}', cache: { ttl: 5 } as never })
    doc() {
      return 'x';
    }
  }
  it.each([
    [BadTtl, 'Invalid BadTtl.doc cache:', 'ttlMs: must not be less than 0 (got -1)'],
    [Typo, 'Invalid Typo.doc cache:', 'ttl: unknown option; did you mean "ttlMs"?'],
  ])('%p is refused at start-up', (cls, head, says) => {
    const message = refusal(() => app({ providers: [cls] }));
    expect(message).toContain(head);
    expect(lines(message)).toContain(says);
  });
});
