/**
 * The edge example: one fetch handler from `onemodelcontext/web`, run unchanged under workerd, Deno,
 * Bun and Node by test/e2e/edge/runtimes.test.ts. A plain tool, and a tool that asks twice (a form,
 * then a confirmation) and keeps a value in the sealed `ctx.state` between the rounds.
 */
import 'reflect-metadata';
import { IsInt, IsString, Max, Min } from 'class-validator';
import { Context, ContextServerModule, McpApplication, Tool } from 'onemodelcontext/web';
import { createFetchHandler } from 'onemodelcontext/web';

class GreetInput {
  @IsString() name!: string;
}

class SeatsForm {
  @IsInt() @Min(1) @Max(9) seats!: number;
}

class Edge {
  @Tool({ description: 'Says hello' })
  greet(input: GreetInput) {
    return `Hello, ${input.name}!`;
  }

  @Tool({ description: 'Books seats after asking how many and for a confirmation', forms: [SeatsForm] })
  async book(ctx: Context) {
    ctx.state.set('ref', ctx.state.get('ref') ?? `R${ctx.requestId}`);
    const form = await ctx.elicit(SeatsForm, 'How many seats?');
    if (form.action !== 'accept') return 'nothing booked';
    const sure = await ctx.confirm(`Book ${form.content.seats} seats?`);
    return sure ? `booked ${form.content.seats} seats (${ctx.state.get('ref')})` : 'nothing booked';
  }
}

const app = McpApplication.create({
  name: 'edge',
  version: '1.0.0',
  providers: [Edge],
  // A fixed key so every instance (and every round) opens the sealed state; a real deployment reads it
  // from a secret.
  modules: [ContextServerModule.configure({ requestStateKey: 'CDzlaYQS4biJGoXaRcR4Qq4uOXDcwK40mKG5doLMuxg' })],
});

export default { fetch: createFetchHandler(app, { path: '/mcp' }) };
