import 'reflect-metadata';
import { IsString } from 'class-validator';
import { connectTestClient, Context, Field, forEachEra, McpApplication, Tool } from 'onemodelcontext';

class BookingArgs {
  @IsString() @Field({ description: 'Flight to book' }) flight!: string;
}
class TravellerForm {
  @IsString() name!: string;
}

class BookingTools {
  @Tool({ description: 'Books a flight after asking who travels and confirming', forms: [TravellerForm] })
  async book(args: BookingArgs, ctx: Context) {
    const who = await ctx.elicit(TravellerForm, 'Who is travelling?', { key: 'traveller' });
    if (who.action !== 'accept') return 'Booking cancelled';
    const sure = await ctx.confirm(`Book ${args.flight} for ${who.content.name}?`, { key: 'confirm' });
    return sure ? `Booked ${args.flight} for ${who.content.name}` : 'Not booked';
  }
}

const app = McpApplication.create({ name: 'travel', version: '1.0.0', providers: [BookingTools] });

forEachEra('book asks twice, then books', async (era) => {
  const client = await connectTestClient(app, {
    era,
    answers: {
      traveller: { action: 'accept', content: { name: 'Ada' } },
      // A function answer sees the request: here the user accepts whatever is asked.
      confirm: (params) => ({ action: 'accept', content: { confirm: String(params.message).startsWith('Book') } }),
    },
  });
  const run = await client.callTool('book', { flight: 'AMS-BCN' });

  expect(run.text).toBe('Booked AMS-BCN for Ada');
  expect(run.asks).toBe(2);
  // 2026-07-28 replays the handler once per answered round; 2025-11-25 awaits in one request.
  expect(run.rounds).toBe(era === '2026-07-28' ? 3 : 1);
  expect(client.asks.map((a) => a.kind)).toEqual(['elicitation', 'elicitation']);
  await client.close();
});
