// Memory per 1 000 idle legacy sessions: open N sessions (initialize + initialized), GC, read heap
// and RSS; open N more; the second step's growth per session (the first also warms code paths).
import { fileURLToPath } from 'node:url';
import { port } from './targets.mjs';
import { startServer, stopServer, waitUntil } from './procs.mjs';
import { listening, openLegacySession } from './wire.mjs';

const SERVERS = [
  { label: 'ours (serveHttp sessions)', file: fileURLToPath(new URL('../servers/ours.cjs', import.meta.url)), port: port(4251), env: { TOOLS: 'echo' } },
  { label: 'sdk-v1 (transport per session)', file: fileURLToPath(new URL('../servers/sdk-v1-sessions.mjs', import.meta.url)), port: port(4252), env: {} },
];

function memOf(child) {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m));
    child.send('mem');
  });
}

async function openMany(port, n) {
  for (let i = 0; i < n; i++) await openLegacySession(port);
}

export async function measureSessions(n = 1000) {
  const rows = [];
  for (const s of SERVERS) {
    const child = startServer(s.file, { ...s.env, PORT: String(s.port) }, { nodeArgs: ['--expose-gc'], ipc: true });
    try {
      await waitUntil(() => listening(s.port), { what: s.label, child });
      await openMany(s.port, Math.min(100, n)); // warm the code paths
      const m0 = await memOf(child);
      await openMany(s.port, n);
      const m1 = await memOf(child);
      await openMany(s.port, n);
      const m2 = await memOf(child);
      const per1000 = (a, b, k) => ((b[k] - a[k]) / n) * 1000 / 2 ** 20;
      rows.push({ label: s.label, sessions: n, heapMBPer1000: per1000(m1, m2, 'heapUsed'), rssMBPer1000: per1000(m1, m2, 'rss'),
        heapMBPer1000FirstStep: per1000(m0, m1, 'heapUsed'), rssAfterMB: m2.rss / 2 ** 20, heapAfterMB: m2.heapUsed / 2 ** 20 });
    } finally {
      await stopServer(child);
    }
  }
  return { summary: rows };
}
