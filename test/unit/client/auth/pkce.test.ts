import { createHash } from 'node:crypto';
import { createPkce, createState, s256 } from '../../../../src/client/auth/pkce';

test('S256 is unpadded base64url of the SHA-256', () => {
  expect(s256('abc')).toBe('ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0');
});

test('each pair is fresh, 43 characters of the unreserved set, and its challenge matches', () => {
  const a = createPkce();
  const b = createPkce();
  expect(a.verifier).not.toBe(b.verifier);
  expect(a.verifier).toMatch(/^[A-Za-z0-9\-._~]{43}$/);
  expect(a.method).toBe('S256');
  expect(a.challenge).toBe(createHash('sha256').update(a.verifier).digest('base64url'));
  expect(createState()).not.toBe(createState());
});
