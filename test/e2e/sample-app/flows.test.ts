/** The travel desk's flows over real Streamable HTTP, one script, both eras. */
import {
  bothEras,
  connectTestClient,
  serveHttp,
  type HttpServerHandle,
  type TestClient,
  type McpApplication,
} from 'onemodelcontext';
import { createTravelDesk } from '../../../sample-app/src/app';
import { BookingStore } from '../../../sample-app/src/catalog';

const passenger = { action: 'accept', content: { fullName: 'Ada Lovelace', email: 'ada@example.com', seat: 'aisle' } };

bothEras('travel desk over HTTP', (era) => {
  let app: McpApplication;
  let server: HttpServerHandle;
  let client: TestClient;

  beforeAll(async () => {
    app = createTravelDesk();
    server = await serveHttp(app, { port: 0 });
    client = await connectTestClient(
      { url: server.url },
      {
        era,
        answers: {
          confirm: { action: 'accept', content: { confirm: true } },
          passenger,
          sampling: {
            role: 'assistant',
            content: { type: 'text', text: 'Two lines about Vienna.' },
            model: 'test-model',
          },
          roots: [{ uri: 'file:///home/ada/trips', name: 'trips' }],
          connect: { action: 'accept' },
          include_full: { action: 'accept', content: { confirm: true } },
        },
      },
    );
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  test('search returns structured offers', async () => {
    const run = await client.callTool('search_flights', { from: 'LIS', to: 'MAD' });
    expect(run.result.structuredContent).toEqual({ offers: [expect.objectContaining({ id: 'LIS-MAD-166' })] });
    expect(run.rounds).toBe(1);
  });

  test('a booking takes a seat: the last one booked, search shows 0 and the flight is full', async () => {
    const seats = async () =>
      ((await client.callTool('search_flights', { from: 'AMS', to: 'BER' })).result.structuredContent as {
        offers: { id: string; seatsLeft: number }[];
      }).offers.find((o) => o.id === 'AMS-BER-101')!.seatsLeft;
    expect(await seats()).toBe(1);
    expect((await client.callTool('book_flight', { flightId: 'AMS-BER-101' })).text).toMatch(/^Booked AMS-BER-101/);
    expect(await seats()).toBe(0);
    const again = await client.callTool('book_flight', { flightId: 'AMS-BER-101' });
    expect(again.result.isError).toBe(true);
    expect(again.text).toContain('Flight AMS-BER-101 is full.');
  });

  test('book confirms, asks for the passenger, charges exactly once', async () => {
    const store = app.container.resolve(BookingStore);
    const before = store.charges;
    const run = await client.callTool('book_flight', { flightId: 'BER-VIE-128' });
    expect(run.text).toMatch(/^Booked BER-VIE-128 for Ada Lovelace \(seat: aisle\)\. Reference TD-\d+/);
    expect(run.asks).toBe(2);
    expect(run.rounds).toBe(era === '2026-07-28' ? 3 : 1);
    expect(store.charges - before).toBe(1);
  });

  test('trip summary samples the client’s model; export uses a client root', async () => {
    const booked = await client.callTool('book_flight', { flightId: 'BER-VIE-128' });
    const reference = /Reference (TD-\d+)/.exec(booked.text)![1]!;
    expect((await client.callTool('trip_summary', { reference })).text).toBe('Two lines about Vienna.');
    expect((await client.callTool('export_itinerary', { reference })).text).toBe(
      `Itinerary for ${reference} would be written to file:///home/ada/trips/${reference}.ics`,
    );
    const read = await client.readResource(`travel://bookings/${reference}`);
    expect(JSON.parse(read.text)).toMatchObject({ reference, flightId: 'BER-VIE-128' });
  });

  test('an unknown booking is "resource not found" in the code of the revision (NotFoundError)', async () => {
    const uri = 'travel://bookings/TD-404';
    await expect(client.readResource(uri)).rejects.toMatchObject({
      code: era === '2026-07-28' ? -32602 : -32002,
      message: 'No booking TD-404',
      data: { uri },
    });
  });

  test('connecting an account uses URL elicitation and registers a tool at run time', async () => {
    const run = await client.callTool('connect_account', { programme: 'flying-blue' });
    expect(run.text).toBe('Connected flying-blue. A new tool, loyalty_balance, is now available.');
    const tools = await client.client.listTools();
    expect(tools.map((t) => t.name)).toContain('loyalty_balance');
    expect((await client.callTool('loyalty_balance', {})).text).toBe('flying-blue: 42 000 miles');
  });

  test('the prompt asks for a travel style; completions and resources answer', async () => {
    // Legacy asks carry no key, so this client scripts the one elicitation by kind.
    const planner = await connectTestClient(
      { url: server.url },
      { era, answers: { elicitation: { action: 'accept', content: { style: 'budget' } } } },
    );
    const prompt = await planner.getPrompt('plan_trip', { destination: 'Lisbon', days: '3' });
    expect(prompt.text).toBe('Plan a 3-day budget trip to Lisbon. Suggest flights from our catalog.');
    await planner.close();
    const done = await client.client.complete({
      ref: { type: 'ref/prompt', name: 'plan_trip' },
      argument: { name: 'destination', value: 'l' },
    });
    expect(done.values).toEqual(['LHR', 'LIS']);
    expect((await client.readResource('travel://policies')).text).toContain('Free cancellation');
  });

  test('the fare report runs as a task on 2026 (progress, an ask), synchronously on legacy', async () => {
    const statuses: string[] = [];
    const run = await client.callTool('fare_report', { from: 'VIE' }, {
      onTaskStatus: (t) => statuses.push(`${t.status}${t.statusMessage ? `: ${t.statusMessage}` : ''}`),
    });
    expect(run.text.split('\n')[0]).toBe('Fares from VIE:');
    expect(run.text.split('\n')).toHaveLength(10);
    expect(run.asks).toBe(1);
    if (era === '2026-07-28') {
      expect(run.taskId).toEqual(expect.any(String));
      expect(statuses).toContain('input_required');
      expect(statuses.some((s) => s.startsWith('working: Queried VIE'))).toBe(true);
    } else {
      expect(run.taskId).toBeUndefined();
    }
  });

  test('a confirmation declined faster than a person reads goes to an approval page; nothing is charged', async () => {
    // A scripted decline comes back in microseconds: the ask watchdog takes it as "not shown" (a
    // host that auto-declines), and book_flight's approvalPage fallback answers with a link.
    const decliner = await connectTestClient(
      { url: server.url },
      { era, declare: ['elicitation'], answers: { confirm: { action: 'decline' } } },
    );
    const store = app.container.resolve(BookingStore);
    const before = store.charges;
    const run = await decliner.callTool('book_flight', { flightId: 'BER-VIE-128' });
    expect(run.text).toContain('Show the user this link');
    const approval = run.result._meta?.['io.onemodelcontext/approval'];
    expect(approval).toEqual(expect.objectContaining({ url: expect.any(String) }));
    expect(store.charges).toBe(before);
    await decliner.close();
  });

  test('with URL mode the page goes to the host as a URL elicitation; declined at once too, the link', async () => {
    const decliner = await connectTestClient(
      { url: server.url },
      { era, answers: { confirm: { action: 'decline' }, urlElicitation: { action: 'decline' } } },
    );
    const store = app.container.resolve(BookingStore);
    const before = store.charges;
    const run = await decliner.callTool('book_flight', { flightId: 'BER-VIE-128' });
    const approval = run.result._meta?.['io.onemodelcontext/approval'] as { url: string };
    const sent = decliner.asks.filter((a) => a.kind === 'urlElicitation').map((a) => a.params.url);
    expect(sent).toEqual([approval.url]);
    expect(run.text).toContain('Show the user this link');
    expect(store.charges).toBe(before);
    await decliner.close();
  });
});
