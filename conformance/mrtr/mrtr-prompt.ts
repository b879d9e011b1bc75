/** A9 `input-required-result-non-tool-request`: prompts/get can ask too. */
import { Context, Prompt, type GetPromptResult } from '../../src';
import { ContextForm } from './mrtr-forms';

export class MrtrPrompts {
  @Prompt({
    name: 'test_input_required_result_prompt',
    description: 'SEP-2322: a prompt that asks for context first',
    forms: [ContextForm],
  })
  async promptWithInput(ctx: Context): Promise<GetPromptResult> {
    const answer = await ctx.elicit(ContextForm, 'What context should the prompt use?', { key: 'user_context' });
    const context = answer.action === 'accept' ? answer.content.context : 'no context';
    return { messages: [{ role: 'user', content: { type: 'text', text: `Answer using this context: ${context}` } }] };
  }
}
