// results.svg by hand (no dependency): one bar per comparison, ours ÷ peer (median of per-round
// ratios) on a log axis, the 1× line and each target marked.
import { scenarioRatios } from './ratios.mjs';

const BARS = [
  ['fixed-2026', 'ours', 'sdk-v2', 32, 'fixed text 2026, 32 conns ÷ SDK v2', 10],
  ['fixed-2026', 'ours', 'raw node:http', 32, 'fixed text 2026 ÷ raw node:http', 0.4],
  ['echo-2026', 'ours', 'sdk-v2', 32, 'echo 2026, 32 conns ÷ SDK v2', 12],
  ['echo-2026', 'ours', 'sdk-v2', 1, 'echo 2026, 1 conn ÷ SDK v2'],
  ['echo-2026', 'ours', 'sdk-v1 (2025-11-25 wire)', 32, 'echo, 32 conns ÷ SDK v1'],
  ['echo-2026', 'ours', 'raw node:http', 32, 'echo 2026, 32 conns ÷ raw node:http', 0.4],
  ['echo-legacy', 'ours (session)', 'sdk-v1 (stateless)', 32, 'echo 2025-11-25 session ÷ SDK v1', 14],
  ['form10', 'ours', 'sdk-v2', 32, '10-field DTO call ÷ SDK v2'],
  ['list-200', 'ours', 'sdk-v2', 32, 'tools/list, 200 tools ÷ SDK v2'],
  ['echo-200', 'ours, 200 tools', 'sdk-v2, 200 tools', 32, 'echo, 200 tools ÷ SDK v2'],
  ['echo-200', 'ours, 200 tools', 'ours, 1 tool', 32, 'echo, 200 tools ÷ ours 1 tool', 0.9],
  ['mrtr', 'ours HMAC state', 'sdk-v2 createRequestStateCodec', 32, 'MRTR flow (HMAC) ÷ SDK v2'],
  ['mrtr', 'ours AES-GCM state', 'sdk-v2 createRequestStateCodec', 32, 'MRTR flow (AES-GCM) ÷ SDK v2', 8],
  ['mrtr', 'ours AES-GCM + single-use state', 'sdk-v2 createRequestStateCodec', 32, 'MRTR flow (AES, single-use) ÷ SDK v2', 8],
];

const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

export function renderChart(results) {
  const bars = [];
  for (const [id, ours, other, conns, label, target] of BARS) {
    const s = results.scenarios.find((x) => x.id === id);
    const r = s && scenarioRatios(s).find((x) => x.ours === ours && x.other === other && x.connections === conns);
    if (r && Number.isFinite(r.median)) bars.push({ label, value: r.median, target });
  }
  const W = 860, left = 300, right = 60, top = 56, rowH = 30, plotW = W - left - right;
  const H = top + bars.length * rowH + 50;
  const lo = 0.1, hi = 100;
  const x = (v) => left + (plotW * (Math.log10(Math.min(hi, Math.max(lo, v))) - Math.log10(lo))) / (Math.log10(hi) - Math.log10(lo));
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="system-ui, sans-serif" font-size="13">`,
    `<rect width="${W}" height="${H}" fill="#fff"/>`,
    `<text x="16" y="22" font-size="16" font-weight="600">onemodelcontext ÷ peer, same-round throughput (median of rounds, log scale)</text>`,
    `<text x="16" y="40" fill="#555">${esc(`Node ${results.machine.node}, ${results.machine.cpu}; ${results.options.rounds} rounds${results.options.smoke ? ' (smoke)' : ''}. ▏= target`)}</text>`,
  ];
  for (const g of [0.1, 0.3, 1, 3, 10, 30, 100]) {
    parts.push(`<line x1="${x(g)}" y1="${top - 6}" x2="${x(g)}" y2="${H - 40}" stroke="${g === 1 ? '#333' : '#ddd'}" stroke-width="${g === 1 ? 1.5 : 1}"/>`);
    parts.push(`<text x="${x(g)}" y="${H - 24}" text-anchor="middle" fill="#555">${g}×</text>`);
  }
  bars.forEach((b, i) => {
    const y = top + i * rowH;
    const x0 = x(1), x1 = x(b.value);
    const color = b.target === undefined ? '#4a78c2' : b.value >= b.target ? '#2e8b57' : '#d2691e';
    parts.push(`<text x="${left - 8}" y="${y + 18}" text-anchor="end">${esc(b.label)}</text>`);
    parts.push(`<rect x="${Math.min(x0, x1)}" y="${y + 6}" width="${Math.max(1, Math.abs(x1 - x0))}" height="${rowH - 12}" fill="${color}"/>`);
    parts.push(`<text x="${Math.max(x0, x1) + 4}" y="${y + 18}" fill="#222">${b.value >= 10 ? b.value.toFixed(1) : b.value.toFixed(2)}×</text>`);
    if (b.target !== undefined) parts.push(`<line x1="${x(b.target)}" y1="${y + 2}" x2="${x(b.target)}" y2="${y + rowH - 2}" stroke="#c00" stroke-width="2.5"/>`);
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
