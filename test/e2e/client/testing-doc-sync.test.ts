/** docs/testing.md shows testing-doc.test.ts verbatim; this keeps the two identical. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

test('the docs example is the test file', () => {
  const root = join(__dirname, '..', '..', '..');
  const doc = readFileSync(join(root, 'docs', 'testing.md'), 'utf8');
  const block = /```ts\n([\s\S]*?)```/.exec(doc)?.[1];
  expect(block).toBe(readFileSync(join(__dirname, 'testing-doc.test.ts'), 'utf8'));
});
