import { AuthorizationResponseError } from '../../../../src/client/auth/auth-errors';
import { readAuthorizationResponse } from '../../../../src/client/auth/authorization-response';

const issuer = 'https://auth.example.com';
const back = (q: Record<string, string>) => new URL(`http://localhost/cb?${new URLSearchParams(q)}`);
const expectations = { state: 's1', issuer, issRequired: false };

test('a matching response yields the code', () => {
  expect(readAuthorizationResponse(back({ code: 'c', state: 's1', iss: issuer }), expectations)).toBe('c');
  expect(readAuthorizationResponse(back({ code: 'c', state: 's1' }), expectations)).toBe('c');
});

test.each([
  ['wrong state', { code: 'c', state: 'other', iss: issuer }, false, /wrong state/],
  ['no state', { code: 'c' }, false, /wrong state/],
  ['another issuer', { code: 'c', state: 's1', iss: 'https://evil.example.com' }, false, /another issuer/],
  ['a normalization-equivalent issuer', { code: 'c', state: 's1', iss: `${issuer}/` }, false, /another issuer/],
  ['a missing iss the server advertised', { code: 'c', state: 's1' }, true, /advertises the iss/],
  ['an error', { error: 'access_denied', state: 's1', iss: issuer }, false, /access_denied/],
  ['no code', { state: 's1', iss: issuer }, false, /no code/],
])('refuses %s', (_name, q, issRequired, message) => {
  const run = () => readAuthorizationResponse(back(q), { ...expectations, issRequired });
  expect(run).toThrow(AuthorizationResponseError);
  expect(run).toThrow(message);
});

test('a mismatched iss is refused even on an error response, and the error text is bounded', () => {
  expect(() =>
    readAuthorizationResponse(back({ error: 'x', state: 's1', iss: 'https://evil.example.com' }), expectations),
  ).toThrow(/another issuer/);
  try {
    readAuthorizationResponse(back({ error: 'e'.repeat(5000), state: 's1' }), expectations);
  } catch (e) {
    expect((e as AuthorizationResponseError).message.length).toBeLessThan(300);
  }
});
