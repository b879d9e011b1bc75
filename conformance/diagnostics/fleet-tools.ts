/**
 * Fleet diagnostics (not part of the official suite): a three-round flow whose fenced step names
 * the process that ran it, and a trigger for `resources/updated`. The fleet tests send each round
 * to another instance and check that the fenced step ran once, on one instance. `test_fleet_ledger`
 * writes what ran to a ledger file shared by the fleet (FLEET_LEDGER): the fault tests count it.
 */
import { appendFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { injectable } from 'tsyringe';
import { IsBoolean, IsOptional, IsString } from 'class-validator';
import { Context, Tool } from '../../src';
import { DynamicLists } from './dynamic-lists';

export class FleetNameForm {
  @IsString() name!: string;
}

export class LedgerArgs {
  /** Names the flow in the ledger. */
  @IsString() tag!: string;
  /** After the fenced step ran here, never return (the fault test kills this instance). */
  @IsOptional() @IsBoolean() hangAfterOnce?: boolean;
}

/** One line per effect, appended (O_APPEND: lines from several processes never interleave). */
function ledger(line: string): void {
  const file = process.env.FLEET_LEDGER;
  if (file) appendFileSync(file, `${line}\n`);
}

export class UpdatedResource {
  @IsString() uri!: string;
}

let fenced = 0;

@injectable()
export class FleetDiagnostics {
  constructor(private readonly lists: DynamicLists) {}

  @Tool({ name: 'test_fleet_flow', description: 'Confirm, run a fenced step once, ask a name: three rounds on 2026', forms: [FleetNameForm] })
  async fleetFlow(ctx: Context): Promise<string> {
    if (!(await ctx.confirm('Go on?', { key: 'go' }))) return 'stopped';
    const ran = await ctx.once('step', () => `pid ${process.pid} run ${++fenced}`);
    const form = await ctx.elicit(FleetNameForm, 'Name?', { key: 'name' });
    return `${ran}; name ${form.action === 'accept' ? form.content.name : '-'}`;
  }

  @Tool({
    name: 'test_fleet_ledger',
    description: 'Confirm, run a fenced step (ledger ONCE), ask a name, then write the ledger line DONE: three rounds',
    forms: [FleetNameForm],
  })
  async fleetLedger(args: LedgerArgs, ctx: Context): Promise<string> {
    if (!(await ctx.confirm('Go on?', { key: 'go' }))) return 'stopped';
    let ranHere = false;
    await ctx.once('step', () => {
      ranHere = true;
      ledger(`ONCE ${args.tag} ${process.pid}`);
    });
    if (ranHere && args.hangAfterOnce) {
      ledger(`HANG ${args.tag} ${process.pid}`);
      await new Promise<never>(() => undefined);
    }
    const form = await ctx.elicit(FleetNameForm, 'Name?', { key: 'name' });
    ledger(`DONE ${args.tag} ${process.pid}`);
    return `done ${args.tag}; name ${form.action === 'accept' ? form.content.name : '-'}`;
  }

  @Tool({
    name: 'test_fleet_task',
    description: 'A task: confirm, run a fenced step (ledger ONCE), then write DONE; the fault tests kill its instance',
    task: 'required',
  })
  async fleetTask(args: LedgerArgs, ctx: Context): Promise<string> {
    await sleep(300); // becomes a task (taskAfterMs) before it asks
    if (!(await ctx.confirm('Go on?', { key: 'go' }))) return 'stopped';
    let ranHere = false;
    await ctx.once('step', () => {
      ranHere = true;
      ledger(`ONCE ${args.tag} ${process.pid}`);
    });
    if (ranHere && args.hangAfterOnce) {
      ledger(`HANG ${args.tag} ${process.pid}`);
      await new Promise<never>(() => undefined);
    }
    ledger(`DONE ${args.tag} ${process.pid}`);
    return `done ${args.tag}`;
  }

  @Tool({ name: 'test_trigger_resource_update', description: 'Tells subscribers that a resource changed' })
  triggerResourceUpdate(args: UpdatedResource): string {
    this.lists.resourceUpdated(args.uri);
    return `updated ${args.uri}`;
  }
}
