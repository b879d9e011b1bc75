/** The test kit's options are checked with the client's, in one pass: a typo gets the nearest name of either. */
import { connectTestClient, FrameworkError, McpApplication, MemoryClient } from '../../../src';
import { resolveTestClientOptions } from '../../../src/testing/test-client-options';

const app = () => McpApplication.create({ name: 'kit', version: '1.0.0', providers: [] });

async function refusal(run: () => Promise<unknown>): Promise<string> {
  const error = await run().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FrameworkError);
  expect((error as FrameworkError).code).toBe('OMC_INVALID_OPTIONS');
  return (error as FrameworkError).message;
}

it.each([
  [{ anwsers: {} }, 'anwsers: unknown option; did you mean "answers"?'],
  [{ maxInputRound: 2 }, 'maxInputRound: unknown option; did you mean "maxInputRounds"?'],
  [{ era: '2026' }, 'era: must be one of the following values: 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26'],
  [{ declare: ['elicitaton'] }, 'declare: each value in declare must be one of the following values'],
  [{ replayLint: 'yes' }, 'replayLint: must be a boolean value'],
])('connectTestClient refuses %p', async (options, says) => {
  const message = await refusal(() => connectTestClient(app(), options as never));
  expect(message.split('\n')[0]).toBe('[OMC_INVALID_OPTIONS] Invalid TestClientOptions:');
  expect(message).toContain(says);
});

it('gives the kit its defaults and passes the client options on as given', () => {
  const onWarning = () => undefined;
  const { kit, client } = resolveTestClientOptions({ maxInputRounds: 3, onWarning });
  expect(kit).toEqual({
    era: '2026-07-28',
    answers: undefined,
    declare: ['elicitation', 'urlElicitation', 'sampling', 'roots'],
    replayLint: true,
  });
  expect(client).toEqual({ maxInputRounds: 3, onWarning });
});

describe('MemoryClient.connect checks its options too', () => {
  it.each([
    [{ era: 'legacy', capabilites: {} }, 'capabilites: unknown option; did you mean "capabilities"?'],
    [{ era: 'old' }, 'era: must be one of the following values: modern, legacy'],
  ])('%p', async (options, says) => {
    const message = await refusal(() => MemoryClient.connect(app(), options as never));
    expect(message.split('\n')[0]).toBe('[OMC_INVALID_OPTIONS] Invalid MemoryClientOptions:');
    expect(message).toContain(says);
  });
});
