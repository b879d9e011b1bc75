import { relayAsk } from '../../../src/bridge/relay-ask';

describe('relayAsk: an upstream question as one of our asks', () => {
  test('the request goes out as the upstream wrote it, with the capability it needs', () => {
    const form = relayAsk('elicitation/create', { message: 'name?', requestedSchema: { type: 'object' } });
    expect(form.request).toEqual({
      method: 'elicitation/create',
      params: { message: 'name?', requestedSchema: { type: 'object' } },
    });
    expect(form.supportedBy({ elicitation: { form: {} } })).toBe(true);
    expect(form.supportedBy({ elicitation: { url: {} } })).toBe(false);
    const url = relayAsk('elicitation/create', { mode: 'url', url: 'https://x', message: 'go' });
    expect(url.kind).toBe('urlElicitation');
    expect(url.supportedBy({ elicitation: { form: {} } })).toBe(false);
    const withTools = relayAsk('sampling/createMessage', { messages: [], tools: [] });
    expect(withTools.requires).toEqual({ sampling: { tools: {} } });
    expect(relayAsk('roots/list', undefined).supportedBy({ roots: {} })).toBe(true);
  });

  test('answers are checked for shape only; a wrong shape is asked again with the reason', () => {
    const form = relayAsk('elicitation/create', { message: 'm' });
    expect(form.decode({ action: 'accept', content: { anything: 1 } })).toEqual({
      ok: true,
      value: { action: 'accept', content: { anything: 1 } },
      kept: { action: 'accept', content: { anything: 1 } },
    });
    expect(form.decode({ action: 'maybe' })).toMatchObject({ ok: false, reason: expect.stringContaining('action') });
    expect(relayAsk('sampling/createMessage', {}).decode({ role: 'assistant' })).toMatchObject({ ok: false });
    expect(relayAsk('roots/list', {}).decode({ roots: [] })).toMatchObject({ ok: true });
    expect(relayAsk('roots/list', {}).decode([])).toMatchObject({ ok: false });
  });
});
