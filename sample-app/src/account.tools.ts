/** Connecting a loyalty account: URL elicitation, capability-aware degradation, run-time registration. */
import { Context, McpApplication, Tool } from 'onemodelcontext';
import { inject, injectable } from 'tsyringe';
import { AccountArgs } from './dto';

export const APP = Symbol.for('travel-desk:app');

/** The running application, and whether the loyalty tool was added to it yet. */
export interface AppHolder {
  current?: McpApplication;
  loyaltyTool?: boolean;
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
    this.enableLoyaltyTool(args.programme);
    return `Connected ${args.programme}. A new tool, loyalty_balance, is now available.`;
  }

  /** Run-time registration: clients get a list-changed notification. */
  private enableLoyaltyTool(programme: string): void {
    const app = this.app.current;
    if (!app || this.app.loyaltyTool) return;
    this.app.loyaltyTool = true;
    app.addTool({
      name: 'loyalty_balance',
      description: `Miles balance in ${programme}`,
      annotations: { readOnlyHint: true },
      handler: () => `${programme}: 42 000 miles`,
    });
  }
}
