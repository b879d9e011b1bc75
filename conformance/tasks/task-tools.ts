/**
 * The fixtures of the `tasks-*` scenarios (SEP-2663, the tasks extension). Task tools are plain
 * handlers with `@Tool({ task })`: a call that runs longer than `taskAfterMs` becomes a task, and
 * the asks of a task surface as its `input_required` status, answered through `tasks/update`.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { IsBoolean, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { Context, Field, ProtocolError, Tool } from '../../src';

class GreetArgs {
  @Field({ description: 'Who to greet' }) @IsString() name!: string;
}

class SlowArgs {
  @Field({ description: 'How long the computation takes (0: immediately)' }) @IsInt() @Min(0) @Max(600) seconds!: number;
  @Field({ description: 'A label echoed in the result' }) @IsOptional() @IsString() label?: string;
}

class FileArgs {
  @Field({ description: 'The file to delete' }) @IsString() filename!: string;
}

export class ConfirmForm {
  @Field({ description: 'Delete the file?' }) @IsBoolean() confirm!: boolean;
}

export class NameAnswerForm {
  @Field({ description: 'A name' }) @IsString() name!: string;
  @Field({ description: 'Confirm' }) @IsOptional() @IsBoolean() confirm?: boolean;
}

/** Long enough that the call becomes a task before the handler asks (the default taskAfterMs is 100 ms). */
const WARM_UP_MS = 300;

export class TaskTools {
  @Tool({ name: 'greet', description: 'A synchronous tool: never a task' })
  greet(args: GreetArgs): string {
    return `Hello, ${args.name}!`;
  }

  @Tool({ name: 'slow_compute', description: 'Sleeps `seconds`, then answers; runs as a task', task: 'optional' })
  async slowCompute(args: SlowArgs, ctx: Context): Promise<string> {
    for (let s = 0; s < args.seconds; s++) {
      await ctx.progress(s, args.seconds, `computing ${args.label ?? ''} (${s}/${args.seconds} s)`);
      await sleep(1000, undefined, { signal: ctx.signal });
    }
    return `Computed ${args.label ?? 'result'} in ${args.seconds} s`;
  }

  @Tool({ name: 'failing_job', description: 'A task whose tool fails after about a second', task: 'required' })
  async failingJob(ctx: Context): Promise<string> {
    await sleep(1000, undefined, { signal: ctx.signal });
    throw new Error('The job failed (as it always does)');
  }

  @Tool({ name: 'protocol_error_job', description: 'A task that ends in a protocol error', task: 'optional' })
  async protocolErrorJob(ctx: Context): Promise<string> {
    await sleep(WARM_UP_MS, undefined, { signal: ctx.signal });
    throw ProtocolError.internal('The job hit an internal error');
  }

  @Tool({
    name: 'confirm_delete',
    description: 'A task that asks for confirmation before deleting',
    task: 'optional',
    forms: [ConfirmForm],
  })
  async confirmDelete(args: FileArgs, ctx: Context): Promise<string> {
    await sleep(WARM_UP_MS, undefined, { signal: ctx.signal });
    const answer = await ctx.elicit(ConfirmForm, `Delete ${args.filename}?`, { key: 'confirm' });
    const yes = answer.action === 'accept' && answer.content.confirm;
    return yes ? `Deleted ${args.filename}` : `Kept ${args.filename}`;
  }

  @Tool({
    name: 'multi_input',
    description: 'A task that asks two questions at once',
    task: 'optional',
    forms: [NameAnswerForm],
  })
  async multiInput(ctx: Context): Promise<string> {
    await sleep(WARM_UP_MS, undefined, { signal: ctx.signal });
    const [a, b] = await Promise.all([
      ctx.elicit(NameAnswerForm, 'First name?', { key: 'first' }),
      ctx.elicit(NameAnswerForm, 'Second name?', { key: 'second' }),
    ]);
    const name = (o: typeof a) => (o.action === 'accept' ? o.content.name : o.action);
    return `Got ${name(a)} and ${name(b)}`;
  }

  @Tool({
    name: 'test_tool_with_task',
    description: 'Asks for a name in the call (MRTR), then goes on as a task',
    task: 'required',
    forms: [NameAnswerForm],
  })
  async toolWithTask(ctx: Context): Promise<string> {
    const answer = await ctx.elicit(NameAnswerForm, 'What is your name?', { key: 'user_name' });
    const name = answer.action === 'accept' ? answer.content.name : 'stranger';
    await sleep(1000, undefined, { signal: ctx.signal });
    return `Hello, ${name}! Your task is done.`;
  }
}
