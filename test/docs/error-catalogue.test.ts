/** docs/errors.md and the source agree: every code we can raise is documented, and nothing else is. */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { FRAMEWORK_ERROR_CODES } from '../../src/errors/framework-error-codes';
import { ErrorCode } from '../../src/protocol/error-codes';

const repo = join(__dirname, '..', '..');
const catalogue = readFileSync(join(repo, 'docs', 'errors.md'), 'utf8');

/** The framework's codes: the one list FrameworkErrorCode is derived from. */
const frameworkCodes: readonly string[] = FRAMEWORK_ERROR_CODES;
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
  // The codes we send are the rows of the wire table (the handler-codes section also names ranges).
  const wireTable = catalogue.slice(
    catalogue.indexOf('## JSON-RPC codes on the wire'),
    catalogue.indexOf('## HTTP status of an error'),
  );
  const documentedNumeric = new Set([...wireTable.matchAll(/^\| (-32\d{3}) \|/gm)].map((m) => m[1]!));
  expect(documentedNumeric.size).toBeGreaterThan(5);
  expect([...documentedFramework].filter((c) => !frameworkCodes.includes(c))).toEqual([]);
  expect([...documentedNumeric].filter((c) => !jsonRpcCodes.includes(c))).toEqual([]);
});

/**
 * "Raised somewhere": a framework code is the first argument of `new FrameworkError(…)` or of a
 * subclass's `super(…)`; a JSON-RPC code is used by code that can send it (the client, which only
 * reads codes, does not count): `ErrorCode.X` directly, or a ProtocolError helper built on it.
 */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}
const src = join(repo, 'src');
const sources = sourceFiles(src).map((file) => ({ file: relative(src, file), text: readFileSync(file, 'utf8') }));
const raisedFramework = new Set(
  sources.flatMap(({ text }) =>
    [...text.matchAll(/(?:new FrameworkError|super)\(\s*'(OMC_[A-Z_]+)'/g)].map((m) => m[1]!),
  ),
);
const protocolErrorSource = readFileSync(join(src, 'errors', 'protocol-error.ts'), 'utf8');
const helpersOf = (member: string) =>
  [...protocolErrorSource.matchAll(/static (\w+)\([^)]*\)[^{]*\{[^}]*ErrorCode\.(\w+)/g)]
    .filter((m) => m[2] === member)
    .map((m) => m[1]!);
const sending = sources.filter(
  ({ file }) =>
    !file.startsWith('client') &&
    file !== join('protocol', 'error-codes.ts') &&
    file !== join('errors', 'protocol-error.ts'),
);
const isSent = (member: string) =>
  sending.some(
    ({ text }) =>
      new RegExp(`ErrorCode\\.${member}\\b`).test(text) ||
      helpersOf(member).some((h) => text.includes(`ProtocolError.${h}(`)),
  );

/**
 * Documented codes nothing sends yet, each with the work that will send it or drop it. The test
 * below fails as soon as one is sent, so the entry cannot outlive its reason.
 */
const NOT_SENT_YET: Record<string, string> = {};

test.each(frameworkCodes)('%s is raised somewhere in src', (code) => {
  expect(raisedFramework).toContain(code);
});

test.each(Object.keys(ErrorCode).filter((m) => !(m in NOT_SENT_YET)))('ErrorCode.%s is sent somewhere in src', (member) => {
  expect(isSent(member)).toBe(true);
});

test('codes listed as not sent yet are still not sent (else remove them from NOT_SENT_YET)', () => {
  expect(Object.keys(NOT_SENT_YET).filter(isSent)).toEqual([]);
});

test('no code is raised that the list does not hold', () => {
  expect([...raisedFramework].filter((c) => !frameworkCodes.includes(c))).toEqual([]);
});
