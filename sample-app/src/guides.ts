/** A prompt that asks, static and templated resources, and completions. */
import { Complete, Context, NotFoundError, Prompt, Resource, ResourceTemplate } from 'onemodelcontext';
import { injectable } from 'tsyringe';
import { AIRPORTS, BookingStore } from './catalog';
import { PlanTripArgs } from './dto';
import { IsIn } from 'class-validator';
import { Field } from 'onemodelcontext';

export class TravelStyleForm {
  @IsIn(['budget', 'comfort', 'luxury'])
  @Field({
    title: 'Travel style',
    enumTitles: { budget: 'Budget', comfort: 'Comfort', luxury: 'Luxury' },
    default: 'comfort',
  })
  style = 'comfort';
}

@injectable()
export class Guides {
  constructor(private readonly store: BookingStore) {}

  @Prompt({ description: 'Plan a trip; asks for your travel style when the client can', forms: [TravelStyleForm] })
  async plan_trip(args: PlanTripArgs, ctx: Context) {
    let style = 'comfort';
    if (ctx.supports('elicitation')) {
      const answer = await ctx.elicit(TravelStyleForm, 'How do you like to travel?', { key: 'style' });
      if (answer.action === 'accept') style = answer.content.style;
    }
    return `Plan a ${args.days ?? 'few'}-day ${style} trip to ${args.destination}. Suggest flights from our catalog.`;
  }

  @Complete({ prompt: 'plan_trip', argument: 'destination' })
  completeDestination(value: string) {
    return AIRPORTS.filter((a) => a.startsWith(value.toUpperCase()));
  }

  @Resource({
    uri: 'travel://policies',
    name: 'policies',
    description: 'Booking and refund policies',
    mimeType: 'text/markdown',
  })
  policies() {
    return '# Policies\n\n- Free cancellation within 24 hours.\n- One cabin bag included.\n';
  }

  @ResourceTemplate({ uriTemplate: 'travel://bookings/{reference}', name: 'booking', mimeType: 'application/json' })
  booking(vars: { reference: string }) {
    const b = this.store.get(vars.reference);
    if (!b) throw new NotFoundError(`No booking ${vars.reference}`); // -32002 on 2025-x, -32602 on 2026-07-28
    return JSON.stringify(b);
  }

  @Complete({ resourceTemplate: 'travel://bookings/{reference}', argument: 'reference' })
  completeReference(value: string) {
    return this.store
      .all()
      .map((b) => b.reference)
      .filter((r) => r.startsWith(value));
  }
}
