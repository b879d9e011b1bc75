/**
 * The test kit (DESIGN D11): connect a ContextClient to an app (in memory, or any ClientTarget)
 * for a chosen revision, answer its asks from a script, and read results with their rounds.
 */
import { McpApplication } from '../app/application';
import { FrameworkError } from '../errors/framework-error';
import type { UndeclaredFormUse } from '../server/replay/undeclared-forms';
import { callInfo } from '../client/call-info';
import { ContextClient, type CallOptions, type ClientTarget } from '../client/context-client';
import type { SkillsClient } from '../client/skills';
import type { ContextClientInit, InputContext } from '../client/options';
import type { JsonObject } from '../protocol/jsonrpc';
import type {
  CallToolResult,
  ContentBlock,
  CreateMessageResult,
  ElicitResult,
  GetPromptResult,
  ReadResourceResult,
  Root,
} from '../protocol/types';
import { AnswerScript, type AskKind, type RecordedAsk } from './scripted-answers';
import { resolveTestClientOptions, type TestClientOptions, type TestEra } from './test-client-options';
import { dispatcherOf } from '../app/dispatcher-of';

export type { TestClientOptions, TestEra };

/** A finished call: the result, how many rounds and asks it took, and its text. */
export interface Run<R> {
  result: R;
  rounds: number;
  asks: number;
  text: string;
  /** The task the call became (2026, a task tool that ran longer than `taskAfterMs`). */
  taskId?: string;
}

export class TestClient {
  /** Every ask the server made, in order, across calls. */
  readonly asks: RecordedAsk[] = [];

  /** Undeclared forms the app reported since the last call (in-memory apps only). */
  private undeclared: UndeclaredFormUse[] = [];
  private unsubscribe: () => void = () => undefined;

  private constructor(
    readonly client: ContextClient,
    private readonly script: AnswerScript,
  ) {}

  static async connect(target: McpApplication | ClientTarget, options: TestClientOptions = {}): Promise<TestClient> {
    const { kit: { era, answers, declare, replayLint }, client: rest } = resolveTestClientOptions(options);
    if (target instanceof McpApplication && replayLint) dispatcherOf(target).core.engine.replayLint = 'error';
    const script = new AnswerScript(answers);
    const asks: RecordedAsk[] = [];
    const ask = async (kind: AskKind, params: JsonObject, ctx: InputContext) => {
      const recorded: RecordedAsk = { kind, key: ctx.key, params, era: ctx.era };
      asks.push(recorded);
      return script.answer(recorded);
    };
    const handlers: ContextClientInit = {};
    if (declare.includes('elicitation'))
      handlers.elicitation = async (p, c) => (await ask('elicitation', p, c)) as ElicitResult;
    if (declare.includes('urlElicitation'))
      handlers.urlElicitation = async (p, c) => (await ask('urlElicitation', p, c)) as ElicitResult;
    if (declare.includes('sampling'))
      handlers.sampling = async (p, c) => (await ask('sampling', p, c)) as CreateMessageResult;
    if (declare.includes('roots'))
      handlers.roots = async (c) => (await ask('roots', {}, c)) as Root[] | { roots: Root[] };
    const clientTarget: ClientTarget = target instanceof McpApplication ? { app: target } : target;
    const client = await ContextClient.connect(clientTarget, {
      clientInfo: { name: 'onemodelcontext-test-client', version: '0.1.0' },
      ...rest,
      ...handlers,
      protocolVersion: era,
    });
    const kit = new TestClient(client, script);
    (kit as { asks: RecordedAsk[] }).asks = asks;
    if (target instanceof McpApplication)
      kit.unsubscribe = dispatcherOf(target).core.forms.subscribe((use) => kit.undeclared.push(use));
    return kit;
  }

  get era(): 'modern' | 'legacy' {
    return this.client.era;
  }

  async callTool(name: string, args: JsonObject = {}, options?: CallOptions): Promise<Run<CallToolResult>> {
    this.script.reset();
    return run(await this.strict(this.client.callTool(name, args, options)), (r) => r.content);
  }

  async getPrompt(
    name: string,
    args: Record<string, string> = {},
    options?: CallOptions,
  ): Promise<Run<GetPromptResult>> {
    this.script.reset();
    return run(await this.strict(this.client.getPrompt(name, args, options)), (r) => r.messages.map((m) => m.content));
  }

  async readResource(uri: string, options?: CallOptions): Promise<Run<ReadResourceResult>> {
    this.script.reset();
    const result = await this.strict(this.client.readResource(uri, options));
    return { ...info(result), result, text: result.contents.map((c) => ('text' in c ? c.text : '')).join('') };
  }

  /** The server's skills (SEP-2640), checked as a host loads them: `await kit.skills.load(uri)`. */
  get skills(): SkillsClient {
    return this.client.skills;
  }

  close(): Promise<void> {
    this.unsubscribe();
    return this.client.close();
  }

  /** A handler that elicits a form it did not declare fails the call in tests, whatever the server's mode. */
  private async strict<R>(call: Promise<R>): Promise<R> {
    const settled = await call.then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    const uses = this.undeclared;
    this.undeclared = [];
    if (uses.length > 0) {
      throw new FrameworkError('OMC_FORM_UNDECLARED', [...new Set(uses.map((u) => u.message))].join('\n'));
    }
    if (!settled.ok) throw settled.error;
    return settled.value;
  }
}

/** Shorthand for `TestClient.connect`. */
export function connectTestClient(
  target: McpApplication | ClientTarget,
  options?: TestClientOptions,
): Promise<TestClient> {
  return TestClient.connect(target, options);
}

function run<R extends object>(result: R, blocks: (r: R) => ContentBlock[]): Run<R> {
  const text = blocks(result)
    .map((b) => (b.type === 'text' ? b.text : ''))
    .join('');
  return { ...info(result), result, text };
}

function info(result: object): { rounds: number; asks: number; taskId?: string } {
  const i = callInfo(result);
  const base = { rounds: i?.rounds ?? 1, asks: i?.asks ?? 0 };
  return i?.taskId === undefined ? base : { ...base, taskId: i.taskId };
}
