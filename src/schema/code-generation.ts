/**
 * Whether this runtime lets code be generated from strings. Ajv compiles every schema into a function
 * with `new Function`; Cloudflare Workers (inside a request: not at start-up), Node under
 * `--disallow-code-generation-from-strings` and pages whose CSP lacks 'unsafe-eval' refuse that.
 * The first refusal switches the process over: from then on schemas are checked by an interpreting
 * validator and DTO arguments by class-validator alone, and every registered listener (each
 * application's logger) hears why, once.
 */
let refusal: string | undefined;
const listeners = new Set<(note: string) => void>();

/** Why code generation was refused, or undefined while it works. */
export function codeGenerationRefusal(): string | undefined {
  return refusal;
}

/** Whether `error` is a runtime's refusal to generate code (an EvalError, or its message says so). */
export function isCodeGenerationRefusal(error: unknown): boolean {
  return error instanceof EvalError || /code generation|unsafe-eval/i.test((error as Error | undefined)?.message ?? '');
}

export function recordCodeGenerationRefusal(error: unknown): void {
  if (refusal !== undefined) return;
  refusal = `${(error as Error).name}: ${(error as Error).message}`;
  for (const listener of listeners) listener(refusalNote(refusal));
}

/** Calls `listener` with the note when code generation is refused (at once if it already was). */
export function onCodeGenerationRefused(listener: (note: string) => void): () => void {
  if (refusal !== undefined) listener(refusalNote(refusal));
  else listeners.add(listener);
  return () => void listeners.delete(listener);
}

function refusalNote(reason: string): string {
  return (
    `validation: this runtime forbids code generation (${reason}), so JSON Schemas are now checked by ` +
    `an interpreting validator (@cfworker/json-schema) instead of compiled Ajv validators, and DTO ` +
    `arguments by class-validator alone (no Ajv fast path)`
  );
}
