/**
 * Issue 32, MCP Apps in a real browser: headless Debian Chromium (playwright-core) loads a small
 * host page that connects the official v2 client to the sample app over HTTP, reads `seat_map`'s
 * `ui://` app, renders it in a sandboxed frame and connects it with the official ext-apps
 * AppBridge. The test clicks a seat: the app calls `hold_seat` through the bridge, the result is
 * rendered; app-only tools stay out of the model's list; a malformed app message is refused and
 * the app keeps working. A screenshot goes to results/browser/seat-map.png.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve, sep } from 'node:path';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';
import { createNodeHandler } from '../../../src/transports/http';
import { createTravelDesk } from '../../../sample-app/src/app';
import { FLIGHTS } from '../../../sample-app/src/catalog';
import { moduleUrl, resolveBare, rewriteModule } from '../../helpers/browser-modules';

const CHROMIUM = '/usr/bin/chromium';
const ROOT = resolve(__dirname, '..', '..', '..');
const MODULES = join(ROOT, 'node_modules');
const SHOT_DIR = join(ROOT, 'results', 'browser');
const flightId = FLIGHTS.find((f) => f.seatsLeft > 0)!.id;

/** The host: official client + AppBridge; honours `visibility` (the model never sees app-only tools). */
function hostPage(): string {
  const bridge = moduleUrl(join(MODULES, '@modelcontextprotocol/ext-apps/dist/src/app-bridge.js'), MODULES);
  const client = moduleUrl(resolveBare('@modelcontextprotocol/client', join(ROOT, 'index.js')), MODULES);
  return `<!doctype html><html><head><meta charset="utf-8"><title>test host</title></head>
<body style="font: 14px sans-serif"><h4>Test host</h4><div id="frame"></div>
<script type="module">
import { Client, StreamableHTTPClientTransport } from '${client}';
import { AppBridge, PostMessageTransport, getToolUiResourceUri, isToolVisibilityAppOnly,
  isToolVisibilityModelOnly, buildAllowAttribute } from '${bridge}';
const log = (m) => (window.hostLog = [...(window.hostLog || []), m]);
try {
  const info = { name: 'test-host', version: '1.0.0' };
  const client = new Client(info);
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', location.href)));
  log('connected');
  const { tools } = await client.listTools();
  window.modelTools = tools.filter((t) => !isToolVisibilityAppOnly(t)).map((t) => t.name);
  const tool = tools.find((t) => t.name === 'seat_map');
  const uri = getToolUiResourceUri(tool);
  const read = await client.readResource({ uri });
  const content = read.contents[0];
  window.appResource = { uri, mimeType: content.mimeType, meta: content._meta };
  const iframe = document.createElement('iframe');
  iframe.setAttribute('sandbox', 'allow-scripts');
  iframe.setAttribute('allow', buildAllowAttribute(content._meta?.ui?.permissions ?? {}));
  iframe.style.cssText = 'width: 420px; height: 300px; border: 1px solid #999';
  document.getElementById('frame').appendChild(iframe);
  const bridge = new AppBridge(null, info, { serverTools: {} });
  bridge.oncalltool = async (params) => {
    const target = tools.find((t) => t.name === params.name);
    // Visibility honoured: the app may call only tools it is allowed to see.
    if (!target || isToolVisibilityModelOnly(target)) {
      throw new Error('tool ' + params.name + ' is not available to the app');
    }
    log('app called ' + params.name);
    return client.callTool(params);
  };
  bridge.oninitialized = async () => {
    log('app initialized');
    const args = { flightId: ${JSON.stringify(flightId)} };
    const result = await client.callTool({ name: 'seat_map', arguments: args });
    await bridge.sendToolInput({ arguments: args });
    await bridge.sendToolResult(result);
    window.hostReady = true;
  };
  // Connected before the app loads, so its ui/initialize finds the bridge listening.
  await bridge.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
  iframe.srcdoc = content.text;
} catch (e) {
  window.hostError = String(e && e.stack || e);
}
</script></body></html>`;
}

let mcpServer: Server;
let baseUrl: string;
let browser: Browser;
let page: Page;
const consoleErrors: string[] = [];

function serveStatic(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://x');
  if (url.pathname === '/host.html') {
    res.writeHead(200, { 'content-type': 'text/html' }).end(hostPage());
    return;
  }
  // `/modules/<path>`: a module under node_modules, its bare imports rewritten for the browser.
  const file = url.pathname.startsWith('/modules/')
    ? resolve(MODULES, decodeURIComponent(url.pathname.slice('/modules/'.length)))
    : undefined;
  if (!file || !file.startsWith(MODULES + sep) || !existsSync(file)) {
    res.writeHead(404).end('not found');
    return;
  }
  const js = /\.(m?js|cjs)$/.test(file);
  res.writeHead(200, { 'content-type': js ? 'text/javascript' : 'application/octet-stream' });
  res.end(js ? rewriteModule(file, MODULES) : readFileSync(file));
}

beforeAll(async () => {
  // scripts/install-debian.sh installs it (CI runs that first); no browser is ever downloaded.
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run scripts/install-debian.sh`);
  const app = createTravelDesk();
  const mcp = createNodeHandler(app);
  mcpServer = createServer((req, res) => (req.url?.startsWith('/mcp') ? mcp(req, res) : serveStatic(req, res)));
  await new Promise<void>((r) => mcpServer.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(mcpServer.address() as AddressInfo).port}`;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  page = await browser.newPage();
  page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  await page.goto(`${baseUrl}/host.html`);
  const settled = await page
    .waitForFunction('window.hostReady === true || window.hostError !== undefined', undefined, { timeout: 60_000 })
    .then(() => true, () => false);
  const hostError = await page.evaluate('window.hostError');
  if (!settled || hostError) {
    const steps = await page.evaluate('window.hostLog');
    throw new Error(`host page failed: ${hostError}\nsteps: ${JSON.stringify(steps)}\n${consoleErrors.join('\n')}`);
  }
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((r) => (mcpServer ? mcpServer.close(r) : r(undefined)));
});

async function appFrame(): Promise<Frame> {
  const handle = await page.waitForSelector('iframe');
  const frame = await handle!.contentFrame();
  if (!frame) throw new Error('no app frame');
  return frame;
}

/** Waits for the app's status line to say `text` (and says what it showed instead). */
async function statusIncludes(frame: Frame, text: string): Promise<void> {
  const check = `(document.getElementById('status')?.textContent ?? '').includes(${JSON.stringify(text)})`;
  await frame.waitForFunction(check, undefined, { timeout: 15_000 }).catch(async (e: unknown) => {
    throw new Error(`${String(e)}; the status shows ${JSON.stringify(await frame.textContent('#status'))}`);
  });
}

describe('the seat map app in headless Chromium', () => {
  test('the ui:// app is the MCP Apps type with its CSP, and the model never sees the app-only tool', async () => {
    expect(await page.evaluate('window.appResource')).toEqual({
      uri: 'ui://seat_map/app.html',
      mimeType: 'text/html;profile=mcp-app',
      meta: { ui: { csp: {}, prefersBorder: true } },
    });
    const modelTools = (await page.evaluate('window.modelTools')) as string[];
    expect(modelTools).toContain('seat_map');
    expect(modelTools).not.toContain('hold_seat');
  });

  test('a click in the app calls hold_seat through the bridge and the result is rendered', async () => {
    const frame = await appFrame();
    await frame.waitForSelector('#seat-1A:not([disabled])');
    expect(await frame.isDisabled('#seat-1B')).toBe(true);
    await frame.click('#seat-1A');
    await statusIncludes(frame, '1A held');
    expect(await frame.textContent('#status')).toBe(`Seat 1A held on ${flightId}.`);
    const calls = ((await page.evaluate('window.hostLog')) as string[]).filter((m) => m.startsWith('app called'));
    expect(calls).toEqual(['app called hold_seat']);
    mkdirSync(SHOT_DIR, { recursive: true });
    await page.screenshot({ path: join(SHOT_DIR, 'seat-map.png') });
    expect(existsSync(join(SHOT_DIR, 'seat-map.png'))).toBe(true);
  });

  test('a malformed app message is refused with an error, and the app keeps working', async () => {
    const frame = await appFrame();
    // Sent from inside the app's frame, as a broken app would (browser code, so a string).
    const reply = await frame.evaluate(`new Promise((resolveReply) => {
      window.addEventListener('message', function once(e) {
        if (e.data && e.data.id === 'bad-1') {
          window.removeEventListener('message', once);
          resolveReply(e.data);
        }
      });
      setTimeout(() => resolveReply('no reply within 10 s'), 10000);
      window.parent.postMessage({ jsonrpc: '2.0', id: 'bad-1', method: 'tools/call', params: { name: 42 } }, '*');
    })`);
    // The official bridge checks the request against its schema: `name` must be a string.
    expect(reply).toMatchObject({
      jsonrpc: '2.0',
      id: 'bad-1',
      error: { message: expect.stringMatching(/"expected": "string"/) },
    });
    await frame.click('#seat-2A');
    await statusIncludes(frame, '2A held');
    // The same seat again (re-enabled by hand): the tool's error reaches the app as an error result.
    await frame.evaluate(`(() => {
      const b = document.getElementById('seat-2A');
      b.disabled = false;
      b.click();
    })()`);
    await statusIncludes(frame, 'taken');
    expect(await frame.textContent('#status')).toBe('Could not hold 2A: Seat 2A is taken.');
  });
});
