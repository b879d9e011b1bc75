/** `server-stateless` (SEP-2575) diagnostic tools, driven by the 2026-07-28 harness. */
import { injectable } from 'tsyringe';
import { Context, Tool } from '../../src';
import { DynamicLists } from './dynamic-lists';

@injectable()
export class StatelessDiagnostics {
  constructor(private readonly lists: DynamicLists) {}

  /** Asks for sampling unconditionally: a client that did not declare it gets -32021 from the framework. */
  @Tool({
    name: 'test_missing_capability',
    description: 'Requires the sampling client capability (-32021 when undeclared)',
  })
  async missingCapability(ctx: Context): Promise<string> {
    await ctx.sample('Say anything: this probes the sampling capability.', { key: 'capability_probe' });
    return 'Sampling capability is declared';
  }

  /** The response stream of a 2026 call carries notifications at most, never a server-to-client request. */
  @Tool({
    name: 'test_streaming_elicitation',
    description: 'A response stream with only notifications, never requests',
  })
  async streamingElicitation(ctx: Context): Promise<string> {
    await ctx.progress(50, 100, 'Halfway');
    return 'Streaming complete';
  }

  /** Tries to log; the framework sends nothing unless the request carried a logLevel. */
  @Tool({ name: 'test_logging_tool', description: 'Logs only when the request asks for a log level' })
  async loggingTool(ctx: Context): Promise<string> {
    await ctx.log('info', 'test_logging_tool executed');
    return 'Logged (if a logLevel was requested).';
  }

  @Tool({ name: 'test_trigger_tool_change', description: 'Adds or removes a tool, so the tool list changes' })
  async triggerToolChange(): Promise<string> {
    return `test_dynamic_tool ${await this.lists.toggleTool()}`;
  }

  @Tool({ name: 'test_trigger_prompt_change', description: 'Adds or removes a prompt, so the prompt list changes' })
  async triggerPromptChange(): Promise<string> {
    return `test_dynamic_prompt ${await this.lists.togglePrompt()}`;
  }
}
