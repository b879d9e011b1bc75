/**
 * Run-time changes that hold on every instance of a fleet. A closure cannot travel between
 * processes, so a change is named: every instance registers the same handler at start-up
 * (`app.registerChange(name, apply)`), `app.applyChange(name, args)` publishes the name and its
 * JSON arguments on the fleet's bus, and each instance (this one included, and any that starts
 * later, from the bus's log) runs its own handler once. Without a bus the change applies here at once.
 */
import { FrameworkError } from '../errors/framework-error';
import type { BusRelay } from '../server/fleet/bus-relay';
import type { FleetChangeEvent } from '../server/fleet/notification-bus';

/** Applies a named change on one instance; it may call `app.addTool` and the like. */
export type ChangeHandler<A = unknown> = (args: A) => void;

/** The prefix of the changes the framework itself makes (e.g. `onemodelcontext.bridge.relist:<namespace>`). */
export const FRAMEWORK_CHANGE = 'onemodelcontext.';

export class FleetChanges {
  private readonly handlers = new Map<string, ChangeHandler>();
  private applying = 0;
  private relay?: BusRelay;

  /** Joins the fleet's bus (when one is configured): changes travel through it from now on. */
  attach(relay: BusRelay): void {
    this.relay = relay;
  }

  /** Whether changes travel through a fleet's bus (else they apply here only). */
  get inFleet(): boolean {
    return this.relay !== undefined;
  }

  /** Returns what removes the handler again (a bridge mount that closes). */
  register(name: string, handler: ChangeHandler): () => void {
    if (this.handlers.has(name)) {
      throw new FrameworkError('OMC_DUPLICATE_NAME', `Run-time change "${name}" is registered twice.`);
    }
    this.handlers.set(name, handler);
    return () => {
      if (this.handlers.get(name) === handler) this.handlers.delete(name);
    };
  }

  async apply(name: string, args: unknown): Promise<void> {
    if (!this.handlers.has(name)) {
      throw new FrameworkError(
        'OMC_FLEET_CHANGE_REFUSED',
        `Run-time change "${name}" is not registered: call app.registerChange("${name}", apply) at start-up, on every instance.`,
      );
    }
    // Through the bus: published (and logged) first, so no instance has a change the others miss.
    if (this.relay) return this.relay.publishChange(name, JSON.parse(JSON.stringify(args ?? null)));
    this.run(name, args);
  }

  /** A change heard on the bus (live or replayed). */
  receive(change: FleetChangeEvent): void {
    // The framework's own changes (a bridge mount's relist) concern a part this instance may not have (yet).
    if (!this.handlers.has(change.name) && change.name.startsWith(FRAMEWORK_CHANGE)) return;
    if (!this.handlers.has(change.name)) {
      throw new Error(`run-time change "${change.name}" is not registered on this instance`);
    }
    this.run(change.name, change.args);
  }

  /**
   * A direct `app.addTool` (or remove…) in a fleet would change this instance only while the
   * list_changed reaches every client: refused, naming the way that holds fleet-wide.
   */
  assertLocal(what: string): void {
    if (!this.relay || this.applying > 0) return;
    throw new FrameworkError(
      'OMC_FLEET_CHANGE_REFUSED',
      `app.${what} changes this instance only, but a fleet notification bus is configured (the other instances would answer "Unknown tool"). ` +
        'Register the change by name at start-up on every instance, app.registerChange(name, (args) => app.' +
        `${what}(…)), and make it with await app.applyChange(name, args): every instance applies it, and instances that start later replay it.`,
    );
  }

  private run(name: string, args: unknown): void {
    this.applying++;
    try {
      this.handlers.get(name)!(args);
    } finally {
      this.applying--;
    }
  }
}
