// Mounted tools at scale (issue 38): an app mounting an upstream with N tools over stdio
// (servers/bridge-scale.cjs; the upstream is the SDK v2 fixture, servers/stdio-scale-sdk-v2.mjs: it
// starts fast, so the bridge's own share shows).
// Per size: spawn → `initialize` answer (the bridge answers once the upstream's tools are mounted), the
// bridge's own CPU then (its /proc utime+stime: the upstream child is not in it) and after listing every
// page of tools/list, and one mounted tool called. Linear means CPU per mounted tool stays flat.
import { fileURLToPath } from 'node:url';
import { median } from './stats.mjs';
import { CLK_TCK, procStat } from './procs.mjs';
import { checkTools, INIT, stdioPeer } from './startup-scale.mjs';

const file = (path) => fileURLToPath(new URL(`../../${path}`, import.meta.url));
const BRIDGE = { label: 'bridge', file: file('bench/servers/bridge-scale.cjs') };
const UPSTREAM = file('bench/servers/stdio-scale-sdk-v2.mjs');

async function bridgeOnce(n) {
  const t0 = process.hrtime.bigint();
  const peer = stdioPeer(BRIDGE, { NTOOLS: String(n), UPSTREAM });
  try {
    const init = await peer.request('initialize', INIT);
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    const started = procStat(peer.child.pid);
    if (!init.result?.protocolVersion) throw new Error(`bridge N=${n}: initialize failed: ${JSON.stringify(init)}`);
    peer.notify('notifications/initialized');
    const l0 = process.hrtime.bigint();
    await checkTools(peer, n, `bridge N=${n}`, false);
    const listMs = Number(process.hrtime.bigint() - l0) / 1e6;
    const listed = procStat(peer.child.pid);
    const cpu = (st) => (st.cpuTicks * 1000) / CLK_TCK;
    return { ms, cpuMs: cpu(started), listMs, listCpuMs: cpu(listed) - cpu(started), peakMB: listed.hwmKB / 1024 };
  } finally {
    await peer.stop();
  }
}

/** Rounds × sizes; medians per size and the bridge CPU per mounted tool between the smallest size and each. */
export async function measureBridgeScale({ rounds = 3, sizes = [1, 500, 5000], log = () => {} } = {}) {
  const rows = [];
  for (let round = 1; round <= rounds; round++) {
    for (const n of round % 2 ? sizes : [...sizes].reverse()) {
      const r = await bridgeOnce(n);
      rows.push({ n, round, ...r });
      log(`bridge N=${n} round ${round}: ${r.ms.toFixed(0)} ms, ${r.cpuMs.toFixed(0)} ms CPU to initialize; tools/list ${r.listMs.toFixed(0)} ms, ${r.listCpuMs.toFixed(0)} ms CPU; peak ${r.peakMB.toFixed(0)} MB`);
    }
  }
  const of = (n, k) => median(rows.filter((r) => r.n === n).map((r) => r[k]));
  const base = sizes[0];
  const summary = sizes.map((n) => ({
    n, medianMs: of(n, 'ms'), cpuMs: of(n, 'cpuMs'), listMs: of(n, 'listMs'), listCpuMs: of(n, 'listCpuMs'), peakMB: of(n, 'peakMB'),
    cpuPerToolUs: n === base ? undefined : ((of(n, 'cpuMs') - of(base, 'cpuMs')) * 1000) / (n - base),
    listCpuPerToolUs: n === base ? undefined : ((of(n, 'listCpuMs') - of(base, 'listCpuMs')) * 1000) / (n - base),
  }));
  return { rows, summary, rounds, sizes };
}
