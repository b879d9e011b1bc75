// Summarises a .cpuprofile: self time by file and by function, and inclusive time of our own
// functions (dist/cjs/… shown as src/….ts). Percentages of all sampled time.

/** `dist/cjs/server/dispatcher.js` → `src/server/dispatcher.ts`; packages by name; node internals as `node:…`. */
export function fileOf(url) {
  if (!url) return '(native/gc/idle)';
  const dist = url.match(/\/dist\/cjs\/(.+)\.js$/);
  if (dist && !url.includes('node_modules')) return `src/${dist[1]}.ts`;
  const nm = url.split('node_modules/').pop();
  if (url.includes('node_modules/')) return nm.startsWith('@') ? nm.split('/').slice(0, 2).join('/') : nm.split('/')[0];
  if (url.startsWith('node:')) return url;
  return url.split('/').slice(-2).join('/');
}

export function summarise(profile, top = 30) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const key = (n) => `${fileOf(n.callFrame.url)}:${n.callFrame.functionName || '(anonymous)'}${n.callFrame.url ? `:${n.callFrame.lineNumber + 1}` : ''}`;
  const self = new Map(), byFile = new Map(), inclusive = new Map();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    total += dt;
    const n = nodes.get(id);
    const name = n.callFrame.functionName;
    const k = name === '(idle)' || name === '(garbage collector)' || name === '(program)' ? name : key(n);
    self.set(k, (self.get(k) ?? 0) + dt);
    const file = name === '(idle)' || name === '(garbage collector)' || name === '(program)' ? name : fileOf(n.callFrame.url);
    byFile.set(file, (byFile.get(file) ?? 0) + dt);
    const seen = new Set();
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const c = nodes.get(cur);
      if (!c.callFrame.url.includes('/dist/cjs/') || c.callFrame.url.includes('node_modules')) continue;
      const ck = key(c);
      if (!seen.has(ck)) { seen.add(ck); inclusive.set(ck, (inclusive.get(ck) ?? 0) + dt); }
    }
  });
  const rank = (m, k) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k).map(([name, t]) => ({ name, pct: ((100 * t) / total).toFixed(1) }));
  return { totalMs: total / 1000, byFile: rank(byFile, 20), byFunction: rank(self, top), inclusiveOurs: rank(inclusive, top) };
}

