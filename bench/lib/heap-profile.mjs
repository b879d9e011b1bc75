// Summarises a .heapprofile (node --heap-prof, sampling): bytes allocated by function and by file,
// as shares of all sampled allocation. What GC time is paid for.
import { fileOf } from './cpu-profile.mjs';

export function summariseHeap(profile, top = 40) {
  const byFunction = new Map(), byFile = new Map();
  let total = 0;
  const walk = (node, stack) => {
    const f = node.callFrame;
    const file = fileOf(f.url);
    const key = `${file}:${f.functionName || '(anonymous)'}${f.url ? `:${f.lineNumber + 1}` : ''}`;
    if (node.selfSize > 0) {
      total += node.selfSize;
      byFunction.set(key, (byFunction.get(key) ?? 0) + node.selfSize);
      byFile.set(file, (byFile.get(file) ?? 0) + node.selfSize);
    }
    for (const c of node.children ?? []) walk(c, stack);
  };
  walk(profile.head, []);
  const rank = (m, k) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k).map(([name, b]) => ({ name, pct: ((100 * b) / total).toFixed(1) }));
  return { totalBytes: total, byFile: rank(byFile, 20), byFunction: rank(byFunction, top) };
}
