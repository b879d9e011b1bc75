/**
 * A form passed to `ctx.elicit` that its handler did not declare in `forms` (DESIGN D6 wants every
 * form checked at start-up). In production it is checked on first use (the compiled form is cached)
 * and logged once per handler and form, or refused when `undeclaredForms: 'refuse'`; listeners
 * (the test kit) hear of every use so a test can fail loudly.
 */
import { FrameworkError } from '../../errors/framework-error';
import type { ServerLogger } from '../core/server-logger';

export interface UndeclaredFormUse {
  /** `Class.method` (or the name of a run-time registration). */
  owner: string;
  form: Function;
  message: string;
}

export type UndeclaredFormsMode = 'warn' | 'refuse';

export class UndeclaredForms {
  private readonly logged = new Set<string>();
  private readonly listeners = new Set<(use: UndeclaredFormUse) => void>();

  constructor(
    private readonly logger: ServerLogger,
    private readonly mode: UndeclaredFormsMode,
  ) {}

  /** Each handler's hook, made once (it is asked for on every call). */
  private readonly gates = new WeakMap<object, (form: Function) => void>();

  /** The `checkForm` hook for one handler's Context. */
  gate(def: { owner: string; forms: ReadonlySet<Function> }): (form: Function) => void {
    let gate = this.gates.get(def);
    if (!gate) {
      gate = this.makeGate(def);
      this.gates.set(def, gate);
    }
    return gate;
  }

  private makeGate(def: { owner: string; forms: ReadonlySet<Function> }): (form: Function) => void {
    return (form) => {
      if (def.forms.has(form)) return;
      const message = `${def.owner} asked ctx.elicit(${form.name}) without declaring it: add \`forms: [${form.name}]\` to its decorator so the form is checked at start-up.`;
      const use = { owner: def.owner, form, message };
      for (const listener of this.listeners) listener(use);
      if (this.mode === 'refuse') throw new FrameworkError('OMC_FORM_UNDECLARED', message);
      const key = `${def.owner}\u0000${form.name}`;
      if (!this.logged.has(key)) {
        this.logged.add(key);
        this.logger.warn(message);
      }
    };
  }

  /** Hears every undeclared use (the test kit); returns the unsubscribe function. */
  subscribe(listener: (use: UndeclaredFormUse) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
