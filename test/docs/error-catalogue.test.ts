/** docs/errors.md and the source agree: every code we can raise is documented, and nothing else is. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ErrorCode } from '../../src/protocol/error-codes';

const repo = join(__dirname, '..', '..');
const catalogue = readFileSync(join(repo, 'docs', 'errors.md'), 'utf8');
const frameworkSource = readFileSync(join(repo, 'src', 'errors', 'framework-error.ts'), 'utf8');

/** The members of the FrameworkErrorCode union. */
const frameworkCodes = [...(/type FrameworkErrorCode =([^;]+);/.exec(frameworkSource)?.[1] ?? '').matchAll(/'(OMC_[A-Z_]+)'/g)].map((m) => m[1]!);
const jsonRpcCodes = Object.values(ErrorCode).map(String);

test('the sources were read', () => {
  expect(frameworkCodes.length).toBeGreaterThan(10);
  expect(jsonRpcCodes).toContain('-32602');
});

test.each(frameworkCodes)('%s is in docs/errors.md', (code) => {
  expect(catalogue).toMatch(new RegExp(`\\b${code}\\b`));
});

test.each(jsonRpcCodes)('%s is in docs/errors.md', (code) => {
  expect(catalogue).toMatch(new RegExp(`(^|[^\\d])${code}(?!\\d)`));
});

test('every code in docs/errors.md exists in the source', () => {
  const documentedFramework = new Set([...catalogue.matchAll(/\bOMC_[A-Z_]+\b/g)].map((m) => m[0]));
  const documentedNumeric = new Set([...catalogue.matchAll(/-32\d{3}\b/g)].map((m) => m[0]));
  expect([...documentedFramework].filter((c) => !frameworkCodes.includes(c))).toEqual([]);
  expect([...documentedNumeric].filter((c) => !jsonRpcCodes.includes(c))).toEqual([]);
});
