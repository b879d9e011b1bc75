/**
 * The 2025-11-25 ask scenarios (sampling, elicitation, SEP-1034, SEP-1330). Written with ctx.*, so on
 * a legacy session they send real requests and on 2026-07-28 the same code answers input_required.
 */
import { IsString } from 'class-validator';
import { Context, Field, Tool, type CreateMessageResult, type ElicitOutcome } from '../../src';
import { DefaultsForm, EnumsForm, UserResponseForm } from './ask-forms';

class SamplingArgs {
  @Field({ description: 'The prompt to send to the LLM' }) @IsString() prompt!: string;
}

class ElicitationArgs {
  @Field({ description: 'The message to show the user' }) @IsString() message!: string;
}

/** The text of a sampling reply (a single block or the first of several). */
export function replyText(reply: CreateMessageResult): string | undefined {
  const block = Array.isArray(reply.content) ? reply.content[0] : reply.content;
  return block?.type === 'text' && typeof block.text === 'string' ? block.text : undefined;
}

function describeOutcome(outcome: ElicitOutcome<object>): string {
  const content = outcome.action === 'accept' ? { ...outcome.content } : {};
  return `action=${outcome.action}, content=${JSON.stringify(content)}`;
}

export class AskTools {
  @Tool({ name: 'test_sampling', description: 'Tests server-initiated sampling (LLM completion request)' })
  async sampling(args: SamplingArgs, ctx: Context): Promise<string> {
    const reply = await ctx.sample(
      { messages: [{ role: 'user', content: { type: 'text', text: args.prompt } }], maxTokens: 100 },
      { key: 'llm_response' },
    );
    return `LLM response: ${replyText(reply) ?? 'No response'}`;
  }

  @Tool({
    name: 'test_elicitation',
    description: 'Tests server-initiated elicitation (user input request)',
    forms: [UserResponseForm],
  })
  async elicitation(args: ElicitationArgs, ctx: Context): Promise<string> {
    const outcome = await ctx.elicit(UserResponseForm, args.message, { key: 'user_response' });
    return `User response: ${describeOutcome(outcome)}`;
  }

  @Tool({
    name: 'test_elicitation_sep1034_defaults',
    description: 'Tests elicitation with default values per SEP-1034',
    forms: [DefaultsForm],
  })
  async sep1034Defaults(ctx: Context): Promise<string> {
    const outcome = await ctx.elicit(DefaultsForm, 'Please review and update the form fields with defaults', {
      key: 'defaults',
    });
    return `Elicitation completed: ${describeOutcome(outcome)}`;
  }

  @Tool({
    name: 'test_elicitation_sep1330_enums',
    description: 'Tests elicitation with enum schema improvements per SEP-1330',
    forms: [EnumsForm],
  })
  async sep1330Enums(ctx: Context): Promise<string> {
    const outcome = await ctx.elicit(EnumsForm, 'Please select options from the enum fields', { key: 'enums' });
    return `Elicitation completed: ${describeOutcome(outcome)}`;
  }
}
