/**
 * SEP-2322 `input-required-result-*` tools. Each handler is plain ctx.* code: on 2026-07-28 it is
 * replayed from the top every round (answered asks return their journaled answers, the first
 * unanswered one ends the round); on a legacy session the same asks are real requests.
 */
// Context is imported as a value: `import type` would erase it from the design:paramtypes metadata.
import { Context, Tool } from '../../src';
import { replyText } from '../tools/ask-tools';
import { ColorForm, NameForm, OkForm } from './mrtr-forms';

const CAPITAL_QUESTION = 'What is the capital of France?';

export class MrtrTools {
  /** A1, and the tool of A7/A10/A14/A15: answerable by the key `user_name` alone, without requestState. */
  @Tool({
    name: 'test_input_required_result_elicitation',
    description: 'SEP-2322: asks for a name through input_required',
    forms: [NameForm],
  })
  async elicitation(ctx: Context): Promise<string> {
    const answer = await ctx.elicit(NameForm, 'What is your name?', { key: 'user_name' });
    return answer.action === 'accept' ? `Hello, ${answer.content.name}!` : `No name given (action=${answer.action}).`;
  }

  @Tool({
    name: 'test_input_required_result_sampling',
    description: 'SEP-2322: asks the client model through input_required',
  })
  async sampling(ctx: Context): Promise<string> {
    const reply = await ctx.sample(
      { messages: [{ role: 'user', content: { type: 'text', text: CAPITAL_QUESTION } }], maxTokens: 100 },
      { key: 'capital_question' },
    );
    return `The model answered: ${replyText(reply) ?? '(no text)'}`;
  }

  @Tool({
    name: 'test_input_required_result_list_roots',
    description: 'SEP-2322: asks for the client roots through input_required',
  })
  async listRoots(ctx: Context): Promise<string> {
    const roots = await ctx.listRoots({ key: 'client_roots' });
    return `Client roots: ${roots.map((r) => r.uri).join(', ') || '(none)'}`;
  }

  /**
   * A4: round 1 leaves a marker in ctx.state; on 2026 it comes back only inside the sealed
   * requestState, so finding it on the answering round proves the state round-tripped ("state-ok").
   */
  @Tool({
    name: 'test_input_required_result_request_state',
    description: 'SEP-2322: input_required with a requestState',
    forms: [OkForm],
  })
  async requestState(ctx: Context): Promise<string> {
    const carried = ctx.state.get('asked');
    ctx.state.set('asked', 'confirm');
    const ok = await ctx.elicit(OkForm, 'Please confirm', { key: 'confirm' });
    // A legacy session runs once and keeps its state in memory: there is nothing to carry.
    const stateOk = carried === 'confirm' || ctx.era === 'legacy';
    const confirmed = ok.action === 'accept' && ok.content.ok;
    return `${stateOk ? 'state-ok' : 'state-missing'}: confirmed=${confirmed}`;
  }

  /** A5: three asks in one round: they are registered together because none is awaited alone. */
  @Tool({
    name: 'test_input_required_result_multiple_inputs',
    description: 'SEP-2322: three input requests in one round',
    forms: [NameForm],
  })
  async multipleInputs(ctx: Context): Promise<string> {
    const [name, greeting, roots] = await Promise.all([
      ctx.elicit(NameForm, 'What is your name?', { key: 'user_name' }),
      ctx.sample(
        { messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }], maxTokens: 50 },
        { key: 'greeting' },
      ),
      ctx.listRoots({ key: 'client_roots' }),
    ]);
    const who = name.action === 'accept' ? name.content.name : 'stranger';
    return `${replyText(greeting) ?? 'Hello'}, ${who}! Roots: ${roots.length}.`;
  }

  /** A6: the second ask only exists once the first is answered, so it takes a second round and a new state. */
  @Tool({
    name: 'test_input_required_result_multi_round',
    description: 'SEP-2322: two rounds of input_required',
    forms: [NameForm, ColorForm],
  })
  async multiRound(ctx: Context): Promise<string> {
    const name = await ctx.elicit(NameForm, 'Step 1: What is your name?', { key: 'step1' });
    const color = await ctx.elicit(ColorForm, 'Step 2: What is your favorite color?', { key: 'step2' });
    const who = name.action === 'accept' ? name.content.name : 'someone';
    const favourite = color.action === 'accept' ? color.content.color : 'no colour';
    return `${who} likes ${favourite}.`;
  }

  /** A12: the framework seals requestState (HMAC); a tampered one is refused before this handler runs. */
  @Tool({
    name: 'test_input_required_result_tampered_state',
    description: 'SEP-2322: integrity-protected requestState',
    forms: [OkForm],
  })
  async tamperedState(ctx: Context): Promise<string> {
    const ok = await ctx.elicit(OkForm, 'Please confirm', { key: 'confirm' });
    return `Confirmed: ${ok.action === 'accept' && ok.content.ok}`;
  }

  /** A13: degrade to what the client declared instead of failing (contrast test_missing_capability). */
  @Tool({
    name: 'test_input_required_result_capabilities',
    description: 'SEP-2322: asks only what the client can answer',
    forms: [NameForm],
  })
  async capabilities(ctx: Context): Promise<string> {
    const parts: string[] = [];
    if (ctx.supports('elicitation')) {
      const name = await ctx.elicit(NameForm, 'What is your name?', { key: 'user_name' });
      parts.push(`name=${name.action === 'accept' ? name.content.name : name.action}`);
    }
    if (ctx.supports('sampling')) {
      const reply = await ctx.sample(
        { messages: [{ role: 'user', content: { type: 'text', text: CAPITAL_QUESTION } }], maxTokens: 100 },
        { key: 'capital_question' },
      );
      parts.push(`model=${replyText(reply) ?? '(no text)'}`);
    }
    return parts.length ? `Answered with ${parts.join(', ')}` : 'The client declared neither elicitation nor sampling.';
  }
}
