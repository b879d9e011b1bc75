/**
 * close() while a legacy call waits on the client's answer (an Inspector form left open): the question
 * is withdrawn — the client gets notifications/cancelled and the call ends with the reason — and the
 * drain finishes with the call instead of holding it to the deadline. The log says what it waits for.
 */
import { randomBytes } from 'node:crypto';
import { IsString } from 'class-validator';
import { Context, ContextClient, ContextServerModule, McpApplication, Tool } from '../../../src';
import { serveHttp } from '../../../src/transports/http';

class NameForm {
  @IsString() name!: string;
}

class Asker {
  @Tool({ description: 'asks for a name', forms: [NameForm] })
  async greet(ctx: Context) {
    const answer = await ctx.elicit(NameForm, 'Your name?');
    return answer.action === 'accept' ? `Hello, ${answer.content.name}` : 'no name';
  }
}

test('close({ withdrawAsks: true }) withdraws a pending legacy ask; the call ends with the reason, the drain does not wait for the deadline', async () => {
  const warnings: string[] = [];
  const logger = { warn: (m: string) => warnings.push(m), error: () => undefined, info: () => undefined };
  const app = McpApplication.create({
    name: 'withdraw',
    version: '1.0.0',
    providers: [Asker],
    modules: [ContextServerModule.configure({ logger, requestStateKey: randomBytes(32) })],
  });
  const server = await serveHttp(app, { port: 0, host: '127.0.0.1' });
  let asked!: () => void;
  const questionArrived = new Promise<void>((resolve) => (asked = resolve));
  let cancelledAtClient!: () => void;
  const cancelled = new Promise<void>((resolve) => (cancelledAtClient = resolve));
  const client = await ContextClient.connect(
    { url: server.url },
    {
      protocolVersion: '2025-11-25',
      // The user never answers; the form is dismissed when the server cancels the question.
      elicitation: (_params, context) =>
        new Promise((_resolve, reject) => {
          asked();
          context.signal.addEventListener('abort', () => (cancelledAtClient(), reject(new Error('dismissed'))));
        }),
    },
  );
  try {
    const call = client.callTool('greet').then(
      (result) => JSON.stringify(result),
      (error: Error) => error.message,
    );
    await questionArrived;
    // A deadline far beyond the test's timeout: only the withdrawal can make close() finish in time.
    await server.close({ deadlineMs: 120_000, withdrawAsks: true });
    const outcome = await call;
    expect(outcome).toMatch(/shutting down: this question was withdrawn/);
    await cancelled;
    expect(warnings.join('\n')).toMatch(/waiting up to 120000 ms for 1 request\(s\) in flight \(1 question\(s\) to clients withdrawn\)/);
  } finally {
    await client.close().catch(() => undefined);
  }
});
