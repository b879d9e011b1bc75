import { MAX_CHALLENGE_LENGTH, parseBearerChallenge } from '../../../../src/client/auth/www-authenticate';

test('reads the Bearer parameters: quoted, unquoted, escaped, any case', () => {
  expect(
    parseBearerChallenge(
      'Bearer resource_metadata="https://x.example/.well-known/oauth-protected-resource", scope="a b", ERROR=insufficient_scope, error_description="say \\"no\\""',
    ),
  ).toEqual({
    resourceMetadata: 'https://x.example/.well-known/oauth-protected-resource',
    scope: 'a b',
    error: 'insufficient_scope',
    errorDescription: 'say "no"',
  });
});

test('finds the Bearer challenge among others', () => {
  expect(parseBearerChallenge('Basic realm="x", Bearer scope="s", DPoP algs="ES256"')).toEqual({ scope: 's' });
  expect(parseBearerChallenge('Negotiate abc==, Bearer error="invalid_token"')).toEqual({ error: 'invalid_token' });
});

test('hostile or empty headers give nothing, not an error', () => {
  expect(parseBearerChallenge(undefined)).toEqual({});
  expect(parseBearerChallenge('')).toEqual({});
  expect(parseBearerChallenge('Basic realm="x"')).toEqual({});
  expect(parseBearerChallenge('Bearer scope="unterminated')).toEqual({});
  expect(parseBearerChallenge(`Bearer scope="${'a'.repeat(MAX_CHALLENGE_LENGTH)}"`)).toEqual({});
  expect(parseBearerChallenge('Bearer ,,,, = = "')).toEqual({});
  expect(parseBearerChallenge('Bearer __proto__="x", scope="s"')).toEqual({ scope: 's' });
});

test('the first value of a repeated parameter wins', () => {
  expect(parseBearerChallenge('Bearer scope="a", scope="b"')).toEqual({ scope: 'a' });
});
