/**
 * A full tools/list stays linear in the number of tools (issue 38): the truthful-list step reads each
 * tool's declared asks once per tool list, not once per page, and logs each unservable tool once per
 * client. Counted (reads of `asks`), not timed.
 */
import type { ServerCore } from '../../../../src/server/core/server-core';
import type { RequestScope } from '../../../../src/server/request/request-scope';
import { page, decodeCursor } from '../../../../src/server/replies/pagination';
import { truthfulTools } from '../../../../src/server/methods/unservable-tools';

/** `n` tools; every `every`-th (none when 0) declares a confirm with no fallback. Counts every read of `asks`. */
function tools(n: number, every: number) {
  const reads = { asks: 0 };
  const items = Array.from({ length: n }, (_, i) => {
    const asks = every && i % every === 0 ? { kinds: ['confirm'] as const } : undefined;
    return {
      kind: 'tool' as const,
      name: `t${i}`,
      descriptor: Object.freeze({ name: `t${i}`, description: `tool ${i}` }),
      get asks() {
        reads.asks++;
        return asks;
      },
    };
  });
  return { items: Object.freeze(items), reads };
}

function core(unservableTools: 'annotate' | 'hide' | 'show') {
  const warn = jest.fn();
  const options = { asks: { unservableTools, fallback: 'none' } };
  return { core: { options, logger: { warn } } as unknown as ServerCore, warn };
}

let clients = 0;
/** A client with no capability, of a name not seen before (unservable tools are logged once per client name). */
const noCaps = () =>
  ({ clientCapabilities: {}, clientInfo: { name: `host-${++clients}`, version: '1' } }) as unknown as RequestScope;

/** Every page, as lists.ts asks for them: the truthful list, then one page of it. */
type Listed = { descriptor: object; name: string };
function listAll(c: ServerCore, items: readonly Listed[], pageSize: number, scope: RequestScope) {
  const shown: { name: string; descriptor: { description?: string } }[] = [];
  let cursor: string | undefined;
  do {
    const truthful = truthfulTools(c, items as never, scope);
    const slice = page(truthful.items, cursor, pageSize);
    shown.push(...(slice.items as typeof shown));
    cursor = slice.nextCursor;
    if (cursor) decodeCursor(cursor);
  } while (cursor);
  return shown;
}

describe('truthful lists at scale', () => {
  const n = 2000;
  const pageSize = 10; // 200 pages: a walk per page would read asks 400 000 times

  it('a list with no unservable tool reads each tool once however many pages', () => {
    const { items, reads } = tools(n, 0);
    const { core: c } = core('annotate');
    expect(listAll(c, items, pageSize, noCaps())).toHaveLength(n);
    expect(reads.asks).toBeLessThanOrEqual(3 * n);
  });

  it('annotates the unservable ones, reading and logging each once', () => {
    const { items, reads } = tools(n, 4);
    const { core: c, warn } = core('annotate');
    const scope = noCaps();
    const shown = listAll(c, items, pageSize, scope);
    expect(shown).toHaveLength(n);
    expect(shown[0]!.descriptor.description).toContain('This client cannot use this tool');
    expect(shown[1]!.descriptor.description).toBe('tool 1');
    expect(shown.filter((t) => t.descriptor.description!.includes('cannot use'))).toHaveLength(n / 4);
    listAll(c, items, pageSize, scope); // a second full listing by the same client
    expect(reads.asks).toBeLessThanOrEqual(4 * n);
    expect(warn).toHaveBeenCalledTimes(n / 4);
  });

  it('hides them in hide mode, and a client that can confirm sees every tool as declared', () => {
    const { items, reads } = tools(n, 4);
    const { core: c } = core('hide');
    const shown = listAll(c, items, pageSize, noCaps());
    expect(shown).toHaveLength(n - n / 4);
    expect(shown.some((t) => t.name === 't0')).toBe(false);
    const capable = { ...noCaps(), clientCapabilities: { elicitation: { form: {} } } } as unknown as RequestScope;
    const all = listAll(c, items, pageSize, capable);
    expect(all.map((t) => t.name)).toEqual(items.map((t) => t.name));
    expect(all[0]).toBe(items[0]);
    expect(reads.asks).toBeLessThanOrEqual(6 * n);
  });
});
