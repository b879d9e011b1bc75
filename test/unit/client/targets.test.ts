/** Client targets are options classes too: checked at connect, before anything is spawned or fetched. */
import { ContextClient, FrameworkError, McpApplication } from '../../../src';
import { validateTarget } from '../../../src/client/targets';

async function refusal(run: () => Promise<unknown>): Promise<string> {
  const error = await run().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FrameworkError);
  expect((error as FrameworkError).code).toBe('OMC_INVALID_OPTIONS');
  return (error as FrameworkError).message;
}

const app = () => McpApplication.create({ name: 'targets', version: '1.0.0', providers: [] });

describe('ContextClient.connect refuses a bad target with the same words as any options object', () => {
  const neverCalled = jest.fn();
  afterEach(() => expect(neverCalled).not.toHaveBeenCalled());

  it.each([
    ['HttpTarget', { url: 'http://127.0.0.1:1/mcp', header: {}, fetch: neverCalled }, 'header: unknown option; did you mean "headers"?'],
    ['HttpTarget', { url: '', fetch: neverCalled }, 'url: should not be empty'],
    ['StdioTarget', { command: 'no-such-binary-omc', arg: ['x'] }, 'arg: unknown option; did you mean "args"?'],
    ['StdioTarget', { command: 'no-such-binary-omc', stderr: 'pipe' }, 'stderr: must be one of the following values: inherit, collect, ignore'],
    ['AppTarget', { app: app(), principle: { subject: 'a' } }, 'principle: unknown option; did you mean "principal"?'],
    ['AppTarget', { app: {} }, 'app: must be an McpApplication (or an object with an endpoint)'],
    ['TransportTarget', { transport: {} }, 'transport: must be an object with start() and request() and notify() and close()'],
  ])('%s %p', async (label, target, says) => {
    const message = await refusal(() => ContextClient.connect(target as never));
    expect(message.split('\n')[0]).toBe(`[OMC_INVALID_OPTIONS] Invalid ${label}:`);
    expect(message).toContain(says);
  });
});

it('tells the kind by its key and freezes the target', () => {
  const valid = validateTarget({ command: process.execPath, args: ['-v'], shutdownGraceMs: 10 });
  expect(valid.kind).toBe('stdio');
  expect(valid.target).toEqual({ command: process.execPath, args: ['-v'], shutdownGraceMs: 10 });
  expect(Object.isFrozen(valid.target)).toBe(true);
  expect(validateTarget({ url: 'http://x/mcp' }).kind).toBe('http');
});
