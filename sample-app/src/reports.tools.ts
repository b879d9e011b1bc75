/**
 * A long tool that runs as a task (docs/tasks.md): a fare report over every route from one
 * airport. A 2026-07-28 client that declares the tasks extension gets a task handle and polls it;
 * the progress shows in the task's status; the question in the middle surfaces as the task's
 * input_required status. Other clients get the same handler synchronously.
 */
import { IsIn, IsString } from 'class-validator';
import { Context, Field, Tool } from 'onemodelcontext';
import { AIRPORTS, FLIGHTS } from './catalog';

export class FareReportArgs {
  @IsString() @IsIn([...AIRPORTS]) @Field({ description: 'Departure airport (IATA code)' }) from!: string;
}

/** Stands in for a slow partner query per route. */
function queryPartner(signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, 40);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}

export class ReportTools {
  @Tool({
    description: 'Compile a fare report for every route from an airport (long: runs as a task)',
    annotations: { readOnlyHint: true },
    task: 'optional',
  })
  async fare_report(args: FareReportArgs, ctx: Context): Promise<string> {
    const routes = FLIGHTS.filter((f) => f.from === args.from);
    // The slow part runs once: a later round (after the question) reads its recorded result.
    const lines = await ctx.once('collect', async () => {
      const out: string[] = [];
      for (const [i, f] of routes.entries()) {
        await ctx.progress(i + 1, routes.length, `Queried ${f.from} → ${f.to}`);
        await queryPartner(ctx.signal);
        out.push(`${f.to}: €${f.priceEur}${f.seatsLeft === 0 ? ' (full)' : ''}`);
      }
      return out;
    });
    const includeFull = await ctx.confirm(`Include the ${lines.filter((l) => l.endsWith('(full)')).length} full flights?`, {
      key: 'include_full',
    });
    const shown = includeFull ? lines : lines.filter((l) => !l.endsWith('(full)'));
    return [`Fares from ${args.from}:`, ...shown].join('\n');
  }
}
