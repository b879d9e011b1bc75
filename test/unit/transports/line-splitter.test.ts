import { LineSplitter } from '../../../src/transports/line-splitter';

function split(max: number, chunks: (string | Buffer)[], end = true) {
  const lines: string[] = [];
  let oversize = 0;
  const s = new LineSplitter(max, (l) => lines.push(l), () => oversize++);
  for (const c of chunks) s.push(Buffer.isBuffer(c) ? c : Buffer.from(c));
  if (end) s.end();
  return { lines, oversize };
}

test('frames on newlines across chunks, strips CR, skips blank lines, keeps a final unterminated line', () => {
  expect(split(100, ['{"a":', '1}\r\n\n{"b"', ':2}\n{"c":3}']).lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
});

test('multi-byte characters split across chunks survive', () => {
  const bytes = Buffer.from('"héllo→"\n');
  expect(split(100, [bytes.subarray(0, 3), bytes.subarray(3)]).lines).toEqual(['"héllo→"']);
});

test('an oversized frame is dropped whole, reported once, and the next frame is read', () => {
  const big = 'x'.repeat(50);
  const r = split(20, [big.slice(0, 25), big.slice(25), '\n{"ok":1}\n']);
  expect(r.oversize).toBe(1);
  expect(r.lines).toEqual(['{"ok":1}']);
});

test('memory stays bounded while discarding an endless line', () => {
  let oversize = 0;
  const s = new LineSplitter(1024, () => undefined, () => oversize++);
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  for (let i = 0; i < 200; i++) s.push(chunk); // 12.5 MiB without a newline
  expect(oversize).toBe(1);
  expect((s as unknown as { size: number }).size).toBe(0);
});
