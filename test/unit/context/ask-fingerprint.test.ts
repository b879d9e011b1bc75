/** A question's fingerprint is SHA-256 of its request's JSON text: a builder's shortcut must give the same text. */
import { confirmAsk } from '../../../src/context/ask-builders';
import { askFingerprint } from '../../../src/context/asks';

describe('confirmation fingerprint', () => {
  const messages = [
    'Echo "hello"?',
    '',
    'quote " backslash \\ newline \n tab \t',
    'lone \ud800 surrogate',
    '\u2028\u2029 é 😀',
  ];

  it.each(messages)('the text built around the message equals JSON.stringify of the request (%j)', (message) => {
    const ask = confirmAsk(message, { key: 'k' });
    expect(ask.requestJson?.()).toBe(JSON.stringify(ask.request));
    expect(askFingerprint(ask.request, ask.requestJson?.())).toBe(askFingerprint(ask.request));
  });

  it('a changed message changes the fingerprint', () => {
    const a = confirmAsk('Delete 1 file?');
    const b = confirmAsk('Delete 2 files?');
    expect(askFingerprint(a.request, a.requestJson?.())).not.toBe(askFingerprint(b.request, b.requestJson?.()));
  });
});
