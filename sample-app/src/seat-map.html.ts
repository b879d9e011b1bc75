/**
 * The seat map app (MCP Apps): plain HTML and the host ⇄ app protocol over postMessage (JSON-RPC:
 * `ui/initialize`, then `tools/call` through the host). No bundle, no external origin: the empty
 * CSP of `seat_map` is all it needs.
 */
export const SEAT_MAP_HTML = `<!doctype html>
<html>
<head>
<meta charset="utf-8">
<title>Seat map</title>
<style>
  body { font: 14px system-ui, sans-serif; margin: 12px; }
  .row { display: flex; gap: 6px; margin: 4px 0; }
  button.seat { width: 44px; height: 32px; border-radius: 6px; border: 1px solid #888; background: #e8f4ea; }
  button.seat[disabled] { background: #ccc; color: #666; }
  button.seat.mine { background: #2a7; color: #fff; }
  #status { margin-top: 10px; min-height: 1.2em; }
</style>
</head>
<body>
<h3 id="title">Seat map</h3>
<div id="seats"></div>
<div id="status" role="status"></div>
<script>
  const pending = new Map();
  let nextId = 1;
  let flightId;
  const host = window.parent;
  function request(method, params) {
    const id = nextId++;
    host.postMessage({ jsonrpc: '2.0', id, method, params }, '*');
    return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
  }
  function notify(method, params) {
    host.postMessage({ jsonrpc: '2.0', method, params }, '*');
  }
  function show(text) {
    document.getElementById('status').textContent = text;
  }
  function render(map) {
    flightId = map.flightId;
    document.getElementById('title').textContent = 'Seat map ' + map.flightId;
    const seats = document.getElementById('seats');
    seats.textContent = '';
    for (const row of map.rows) {
      const line = document.createElement('div');
      line.className = 'row';
      for (const seat of row.seats) {
        const b = document.createElement('button');
        b.className = 'seat';
        b.id = 'seat-' + seat.seat;
        b.textContent = seat.seat;
        b.disabled = seat.taken;
        b.onclick = () => hold(seat.seat, b);
        line.appendChild(b);
      }
      seats.appendChild(line);
    }
  }
  async function hold(seat, button) {
    show('Holding ' + seat + '…');
    try {
      const result = await request('tools/call', { name: 'hold_seat', arguments: { flightId, seat } });
      const text = (result.content || []).map((c) => c.text || '').join(' ');
      if (result.isError) return show('Could not hold ' + seat + ': ' + text);
      button.disabled = true;
      button.classList.add('mine');
      show(text);
    } catch (e) {
      show('Could not hold ' + seat + ': ' + e.message);
    }
  }
  window.addEventListener('message', (event) => {
    if (event.source !== host) return;
    const m = event.data;
    if (!m || m.jsonrpc !== '2.0') return;
    if (m.id !== undefined && m.method === undefined) {
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      return m.error ? p.reject(new Error(m.error.message)) : p.resolve(m.result);
    }
    if (m.method === 'ui/notifications/tool-result' && m.params && m.params.structuredContent) {
      render(m.params.structuredContent);
    }
    if (m.method === 'ui/resource-teardown' && m.id !== undefined) {
      host.postMessage({ jsonrpc: '2.0', id: m.id, result: {} }, '*');
    }
  });
  request('ui/initialize', {
    appInfo: { name: 'seat-map', version: '1.0.0' },
    appCapabilities: {},
    protocolVersion: '2026-01-26',
  }).then(() => notify('ui/notifications/initialized', {}), (e) => show('Host refused: ' + e.message));
</script>
</body>
</html>
`;
