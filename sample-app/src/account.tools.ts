/** Connecting a loyalty account: URL elicitation, capability-aware degradation, run-time registration. */
import { Context, McpApplication, Tool } from 'onemodelcontext';
import { inject, injectable } from 'tsyringe';
import { AccountArgs } from './dto';

export const APP = Symbol.for('travel-desk:app');

/** The running application (set once McpApplication.create returned). */
export interface AppHolder {
  current?: McpApplication;
}

/** The run-time change that adds loyalty_balance: registered by name on every instance of a fleet. */
export const LOYALTY_TOOL_CHANGE = 'travel-desk:loyalty-tool';

/** Registers the change at start-up; applying it twice adds the tool once. */
export function registerLoyaltyTool(app: McpApplication): void {
  let added = false;
  app.registerChange<{ programme: string }>(LOYALTY_TOOL_CHANGE, ({ programme }) => {
    if (added) return;
    added = true;
    app.addTool({
      name: 'loyalty_balance',
      description: `Miles balance in ${programme}`,
      annotations: { readOnlyHint: true },
      handler: () => `${programme}: 42 000 miles`,
    });
  });
}

@injectable()
export class AccountTools {
  constructor(@inject(APP) private readonly app: AppHolder) {}

  @Tool({ description: 'Connect a loyalty account (opens a browser page)' })
  async connect_account(args: AccountArgs, ctx: Context) {
    if (!ctx.supports('elicitation.url')) {
      return `Open https://travel-desk.example/connect/${args.programme} in your browser to connect the account.`;
    }
    const outcome = await ctx.elicitUrl(
      `https://travel-desk.example/connect/${args.programme}`,
      `Sign in to ${args.programme} to connect it`,
      { key: 'connect' },
    );
    if (outcome.action !== 'accept') return 'Account not connected.';
    // A named change, not a closure: in a fleet every instance adds the tool (docs/deployment.md).
    await this.app.current?.applyChange(LOYALTY_TOOL_CHANGE, { programme: args.programme });
    return `Connected ${args.programme}. A new tool, loyalty_balance, is now available.`;
  }

}
