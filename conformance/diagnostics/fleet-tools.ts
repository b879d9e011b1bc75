/**
 * Fleet diagnostics (not part of the official suite): a three-round flow whose fenced step names
 * the process that ran it, and a trigger for `resources/updated`. The fleet tests send each round
 * to another instance and check that the fenced step ran once, on one instance.
 */
import { injectable } from 'tsyringe';
import { IsString } from 'class-validator';
import { Context, Tool } from '../../src';
import { DynamicLists } from './dynamic-lists';

export class FleetNameForm {
  @IsString() name!: string;
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

  @Tool({ name: 'test_trigger_resource_update', description: 'Tells subscribers that a resource changed' })
  triggerResourceUpdate(args: UpdatedResource): string {
    this.lists.resourceUpdated(args.uri);
    return `updated ${args.uri}`;
  }
}
