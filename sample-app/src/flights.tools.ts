/** Searching and booking: DTO arguments, structured output, progress, logging and the asks. */
import { injectable } from 'tsyringe';
import { Context, Tool } from 'onemodelcontext';
import { BookingStore, FLIGHTS } from './catalog';
import { BookArgs, BookingRef, PassengerForm, SearchArgs, SearchResult } from './dto';

/** Stands in for a partner API call (and lets progress reach the client before the result). */
function partnerLookup(signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, 20);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}

@injectable()
export class FlightTools {
  constructor(private readonly store: BookingStore) {}

  @Tool({
    description: 'Search flights between two airports',
    output: SearchResult,
    annotations: { readOnlyHint: true, openWorldHint: false },
  })
  async search_flights(args: SearchArgs, ctx: Context): Promise<SearchResult> {
    await ctx.log('info', `searching ${args.from} → ${args.to}`, 'flights');
    await ctx.progress(0, 2, 'Looking up routes');
    await partnerLookup(ctx.signal);
    const offers = FLIGHTS.filter(
      (f) => f.from === args.from && f.to === args.to && f.priceEur <= (args.maxPriceEur ?? Infinity),
    ).map((f) => ({ id: f.id, date: f.date, priceEur: f.priceEur, seatsLeft: this.store.seatsLeft(f) }));
    await ctx.progress(2, 2, `${offers.length} offers`);
    return { offers };
  }

  /**
   * Books a seat. On 2026-07-28 this handler is replayed once per round, so everything before the
   * last ask must be safe to repeat; the charge is fenced with ctx.once so it runs exactly once.
   * A host that cannot show the questions gets an approval page for each instead (`approvalPage`).
   */
  @Tool({
    description: 'Book a flight (asks for confirmation and passenger details)',
    annotations: { destructiveHint: true },
    forms: [PassengerForm],
    asks: { kinds: ['confirm', 'elicit'], fallback: 'approvalPage' },
  })
  async book_flight(args: BookArgs, ctx: Context) {
    const flight = FLIGHTS.find((f) => f.id === args.flightId);
    if (!flight) throw new Error(`Unknown flight ${args.flightId}; use search_flights first.`);
    if (this.store.seatsLeft(flight) === 0) throw new Error(`Flight ${flight.id} is full.`);

    const ok = await ctx.confirm(`Book ${flight.from} → ${flight.to} on ${flight.date} for €${flight.priceEur}?`, {
      key: 'confirm',
    });
    if (!ok) return 'Booking cancelled: nothing was charged.';

    const form = await ctx.elicit(PassengerForm, 'Who is travelling?', { key: 'passenger' });
    if (form.action !== 'accept') return 'Booking cancelled: no passenger details given.';

    const chargeId = await ctx.once('charge', () => this.store.charge(flight.priceEur));
    const reference = `TD-${chargeId.slice(3, 9)}`;
    this.store.save({ reference, flightId: flight.id, passenger: { ...form.content }, chargedEur: flight.priceEur });
    return `Booked ${flight.id} for ${form.content.fullName} (seat: ${form.content.seat}). Reference ${reference}, charge ${chargeId}.`;
  }

  @Tool({ description: 'Summarise a booking with the client’s model', annotations: { readOnlyHint: true } })
  async trip_summary(args: BookingRef, ctx: Context) {
    const booking = this.store.get(args.reference);
    if (!booking) throw new Error(`No booking ${args.reference}`);
    // ctx.state keeps what we computed so a replayed round does not recompute it.
    const facts = ctx.state.get('facts') ?? JSON.stringify(booking);
    ctx.state.set('facts', facts);
    const reply = await ctx.sample({
      messages: [{ role: 'user', content: { type: 'text', text: `Write a two-line trip summary for: ${facts}` } }],
      systemPrompt: 'You are a concise travel assistant.',
      maxTokens: 200,
    });
    const content = Array.isArray(reply.content) ? reply.content[0] : reply.content;
    return content && 'text' in content && typeof content.text === 'string' ? content.text : 'No summary available.';
  }

  @Tool({ description: 'Export a booking as an itinerary file into one of the client’s roots' })
  async export_itinerary(args: BookingRef, ctx: Context) {
    const booking = this.store.get(args.reference);
    if (!booking) throw new Error(`No booking ${args.reference}`);
    const roots = await ctx.listRoots();
    const root = roots.find((r) => r.uri.startsWith('file://'));
    if (!root) return 'The client shared no file root to export into.';
    return `Itinerary for ${booking.reference} would be written to ${root.uri.replace(/\/$/, '')}/${booking.reference}.ics`;
  }
}
