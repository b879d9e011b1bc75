import { acceptsReply } from '../../../../src/transports/http/accept-header';
import { firstOf, header } from '../../../../src/transports/http/http-exchange';
import { HttpOptions, validateHttpOptions } from '../../../../src/transports/http/http-options';
import { hostPolicy, rejectHostOrOrigin } from '../../../../src/transports/http/host-guard';

/** The one-value memos in front of the Accept and Host decisions answer what the full check answers. */
describe('header decisions remembered by value', () => {
  it('acceptsReply: alternating values keep their own answers', () => {
    const values = ['application/json, text/event-stream', 'text/html', 'TEXT/EVENT-STREAM', 'image/png', '*/*'];
    const expected = [true, false, true, false, true];
    for (let round = 0; round < 3; round++)
      values.forEach((v, i) => expect(acceptsReply(v)).toBe(expected[i]));
    // A fresh string equal to a remembered one (as each request's header is) gets the same answer.
    expect(acceptsReply(['text', 'html'].join('/'))).toBe(false);
    expect(acceptsReply(undefined)).toBe(false);
  });

  it('rejectHostOrOrigin: a host allowed by one policy is not thereby allowed by another', () => {
    const options = (o: Partial<HttpOptions>) => validateHttpOptions(o);
    const wide = hostPolicy(options({ allowedHosts: ['api.example', 'Other.Example'] }));
    const narrow = hostPolicy(options({ allowedHosts: ['other.example'] }));
    const loopback = hostPolicy(options({}), 3000);
    expect(rejectHostOrOrigin({ host: 'api.example' }, wide)).toBeUndefined();
    expect(rejectHostOrOrigin({ host: 'api.example' }, narrow)).toBe('Host not allowed: api.example');
    expect(rejectHostOrOrigin({ host: 'API.example' }, wide)).toBeUndefined();
    expect(rejectHostOrOrigin({ host: 'API.example' }, loopback)).toBe('Host not allowed: api.example');
    expect(rejectHostOrOrigin({ host: '127.0.0.1:3000' }, loopback)).toBeUndefined();
    expect(rejectHostOrOrigin({ host: '127.0.0.1:3001' }, loopback)).toBe('Host not allowed: 127.0.0.1:3001');
    expect(rejectHostOrOrigin({ host: '127.0.0.1:3000' }, loopback)).toBeUndefined();
    expect(rejectHostOrOrigin({}, loopback)).toBe('Missing Host header');
    // The origin is still checked when the host is remembered.
    expect(rejectHostOrOrigin({ host: '127.0.0.1:3000', origin: 'http://evil.example' }, loopback)).toBe(
      'Origin not allowed',
    );
  });
});

describe('firstOf', () => {
  it('reads a header value as header() does', () => {
    const bag = { a: 'x', b: ['y', 'z'], c: undefined } as const;
    for (const name of ['a', 'b', 'c', 'd'] as const)
      expect(firstOf((bag as Record<string, string | readonly string[] | undefined>)[name])).toBe(
        header(bag as never, name),
      );
  });
});
