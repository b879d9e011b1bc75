/**
 * Issue 33: the sample's book_flight in the official Inspector's CLI, which cannot show a question.
 * Over HTTP the whole booking goes through its approval pages between three CLI calls; over stdio
 * the sample serves its pages on a loopback port of its own, so the call still answers with a link.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { builtEntry } from '../../helpers/built-app';
import { freePort } from '../../helpers/free-port';
import { inspectorCli, textOf, type CallToolResult } from '../../helpers/inspector';

const APPROVAL = 'io.onemodelcontext/approval';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const FLIGHT = 'flightId=BER-VIE-128';

let server: ChildProcess | undefined;
afterEach(() => {
  server?.kill('SIGKILL');
  server = undefined;
});

async function startHttpSample(): Promise<string> {
  const port = await freePort();
  server = spawn(process.execPath, [builtEntry('sample-app/src/main.js')], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, PORT: String(port) },
  });
  const child = server;
  await new Promise<void>((resolve, reject) => {
    let log = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      log += chunk.toString('utf8');
      if (log.includes('listening on')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the sample exited (${code}):\n${log}`)));
  });
  return `http://127.0.0.1:${port}/mcp`;
}

async function post(url: string, fields: Record<string, string>): Promise<number> {
  const body = new URLSearchParams({ ...fields, _action: 'accept' }).toString();
  return (await fetch(url, { method: 'POST', headers: FORM, body })).status;
}

test.each(['legacy', 'modern'] as const)(
  'over HTTP (%s era): each question is a page, each CLI call continues the booking',
  async (era) => {
    const url = await startHttpSample();
    const call = ['--method', 'tools/call', '--tool-name', 'book_flight', '--tool-arg', FLIGHT];
    const book = (...extra: string[]): CallToolResult => inspectorCli([url], era, [...call, ...extra]);

    const first = book();
    expect(first.isError).toBeUndefined();
    const approval = first._meta?.[APPROVAL] as { id: string; url: string };
    expect(textOf(first)).toContain(approval.url);
    expect(await post(approval.url, { confirm: 'true' })).toBe(200);

    const second = book(`approvalId=${approval.id}`);
    const passengerPage = second._meta?.[APPROVAL] as { url: string };
    expect(textOf(second)).toContain('Who is travelling?');
    expect(await post(passengerPage.url, { fullName: 'Ada Lovelace', email: 'ada@example.com', seat: 'aisle' })).toBe(
      200,
    );

    expect(textOf(book(`approvalId=${approval.id}`))).toMatch(/^Booked BER-VIE-128 for Ada Lovelace \(seat: aisle\)/);
  },
  3 * 60_000,
);

test('over stdio: the call answers with a link to the sample’s own approval page', () => {
  const result = inspectorCli([process.execPath, builtEntry('sample-app/src/main.js'), '--stdio'], 'legacy', [
    ...['--method', 'tools/call', '--tool-name', 'book_flight', '--tool-arg', FLIGHT],
  ]) as CallToolResult;
  expect(result.isError).toBeUndefined();
  expect(textOf(result)).toMatch(/Show the user this link[\s\S]*http:\/\/127\.0\.0\.1:\d+\/mcp\/approval\//);
  expect(textOf(result)).toContain('Book BER → VIE');
}, 60_000);
