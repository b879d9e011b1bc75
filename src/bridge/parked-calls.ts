/**
 * Upstream calls parked on this instance between a caller's rounds. A legacy upstream asks by
 * sending a request and awaiting the reply, so its call cannot be replayed: it waits here, under a
 * random handle that travels sealed in our requestState, until the caller's next round brings the
 * answers (each delivered once), it finishes, or its deadline cancels it upstream.
 */
import { randomBytes } from 'node:crypto';
import type { JsonObject } from '../protocol/jsonrpc';
import type { LogLevel } from '../protocol/meta';
import { bridgeError } from './bridge-errors';

export interface ParkedAsk {
  readonly key: string;
  readonly method: string;
  readonly params: JsonObject;
}

export type ParkedEvent =
  | { kind: 'asks'; asks: readonly ParkedAsk[] }
  | { kind: 'done'; result: JsonObject }
  | { kind: 'failed'; error: unknown };

export interface ParkingLimits {
  /** Calls waiting for answers at once for one principal (anonymous callers share one count). */
  maxParkedPerPrincipal: number;
  /** Calls waiting for answers at once on this instance. */
  maxParked: number;
  /** From the call's start (working or awaiting answers): then the upstream call is cancelled, a retry refused. */
  parkTimeoutMs: number;
  /** Questions one upstream call may ask before its further asks are refused. */
  maxAsksPerCall: number;
}

/** How long a finished call that a caller saw parked stays, so a repeated retry gets the same result. */
const LINGER_MS = 30_000;
/**
 * After an ask wakes a waiting round, how long more asks may join it: a legacy upstream that asks
 * several questions at once (`Promise.all`) sends them as separate requests, and they share one round.
 */
const ASK_GATHER_MS = 5;

interface Waiting extends ParkedAsk {
  resolve(answer: JsonObject): void;
  reject(error: unknown): void;
}

export class ParkedCall {
  /** Aborted on deadline or abandon: the upstream call is cancelled with it. */
  readonly upstream = new AbortController();
  /** Where the upstream call's progress and log messages go: the caller's current round. */
  notify?: {
    onProgress?: (u: { progress: number; total?: number; message?: string }) => void;
    onLog?: (m: { level: LogLevel; data: unknown; logger?: string }) => void;
  };
  /** Whether a caller has seen the handle (an input round went out): then the call lingers when done. */
  escaped = false;
  private readonly waiting: Waiting[] = [];
  private asked = 0;
  private outcome?: ParkedEvent;
  private wake?: () => void;

  constructor(
    readonly handle: string,
    readonly principal: string,
    private readonly maxAsks: number,
  ) {}

  /** The upstream asks (from the upstream client's input handlers): resolves when our caller answers. */
  ask(method: string, params: JsonObject): Promise<JsonObject> {
    if (this.asked >= this.maxAsks) {
      return Promise.reject(
        bridgeError('upstream_asks_limit', `The upstream asked more than ${this.maxAsks} questions in one call.`),
      );
    }
    const key = `upstream-${++this.asked}`;
    return new Promise((resolve, reject) => {
      this.waiting.push({ key, method, params, resolve, reject });
      this.poke();
    });
  }

  /** Hands each waiting ask its answer from this round's responses; an answer is delivered once. */
  deliver(responses: Readonly<Record<string, unknown>> | undefined): void {
    if (!responses) return;
    for (let i = 0; i < this.waiting.length; ) {
      const w = this.waiting[i]!;
      const answer = responses[w.key];
      if (answer === undefined) i++;
      else {
        this.waiting.splice(i, 1);
        w.resolve(answer as JsonObject);
      }
    }
  }

  /** The next thing the caller must see: the asks still unanswered, or the call's outcome. */
  next(signal: AbortSignal): Promise<ParkedEvent> {
    const now = this.current();
    if (now) return Promise.resolve(now);
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.wake = undefined;
        reject(signal.reason);
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      const settle = () => {
        const event = this.current();
        if (!event || signal.aborted) return;
        this.wake = undefined;
        signal.removeEventListener('abort', onAbort);
        resolve(event);
      };
      this.wake = () => {
        if (this.outcome) return settle();
        if (!this.waiting.length) return;
        this.wake = () => this.outcome && settle(); // asks still joining; an outcome ends the wait at once
        setTimeout(settle, ASK_GATHER_MS);
      };
    });
  }

  settle(outcome: ParkedEvent): void {
    this.outcome ??= outcome;
    for (const w of this.waiting.splice(0)) w.reject(new Error('The upstream call ended.'));
    this.poke();
  }

  get settled(): boolean {
    return this.outcome !== undefined;
  }

  private current(): ParkedEvent | undefined {
    return this.outcome ?? (this.waiting.length ? { kind: 'asks', asks: this.waiting.map(publicAsk) } : undefined);
  }

  private poke(): void {
    this.wake?.();
  }
}

function publicAsk(w: Waiting): ParkedAsk {
  return { key: w.key, method: w.method, params: w.params };
}

export class ParkedCalls {
  /** Names this instance in every handle, so a retry elsewhere is told where its call waits. */
  readonly instance = randomBytes(6).toString('base64url');
  private readonly calls = new Map<string, ParkedCall>();
  private readonly perPrincipal = new Map<string, number>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Parked calls counted against the limits (a finished call that lingers no longer counts). */
  private readonly counted = new Set<ParkedCall>();

  constructor(private readonly limits: ParkingLimits) {}

  /** Calls waiting for their callers' answers (parked, not finished). */
  get size(): number {
    return this.counted.size;
  }

  /** A new upstream call, bounded by the deadline; it counts against the limits once it is parked. */
  open(principal: string): ParkedCall {
    const handle = `${this.instance}.${randomBytes(18).toString('base64url')}`;
    const call = new ParkedCall(handle, principal, this.limits.maxAsksPerCall);
    this.calls.set(handle, call);
    this.arm(call, this.limits.parkTimeoutMs, () => {
      const ms = this.limits.parkTimeoutMs;
      const message = `The bridged call did not finish within ${ms} ms (parkTimeoutMs); it was cancelled upstream.`;
      call.upstream.abort(bridgeError('call_deadline', message));
      this.release(call);
    });
    return call;
  }

  /**
   * The call waits for its caller's answers (its handle goes out): counted against its principal
   * and the instance until it finishes; over the limits it is cancelled upstream and refused.
   */
  park(call: ParkedCall): void {
    call.escaped = true;
    if (this.counted.has(call)) return;
    const held = this.perPrincipal.get(call.principal) ?? 0;
    if (held >= this.limits.maxParkedPerPrincipal || this.counted.size >= this.limits.maxParked) {
      this.abandon(call, new Error('Too many parked calls.'));
      throw bridgeError(
        'park_limit',
        `Too many bridged calls waiting for answers (${held} for this caller, ${this.counted.size} on this instance); answer or abandon some first.`,
      );
    }
    this.counted.add(call);
    this.perPrincipal.set(call.principal, held + 1);
  }

  /** The call a retry names; a clear refusal when it is not here (never a new upstream call). */
  find(handle: string, principal: string): ParkedCall {
    const call = this.calls.get(handle);
    if (call && call.principal === principal) return call;
    const elsewhere = !handle.startsWith(`${this.instance}.`);
    throw elsewhere
      ? bridgeError(
          'parked_elsewhere',
          'This call is waiting on another bridge instance; its retry must reach that instance (sticky routing) — start the call again if that instance is gone.',
        )
      : bridgeError('parked_expired', 'This bridged call is no longer waiting here (finished, expired or cancelled); start the call again.');
  }

  /** A finished call: gone now unless a caller saw it parked (then it lingers for repeated retries). */
  finished(call: ParkedCall): void {
    this.uncount(call);
    if (!call.escaped) return this.release(call);
    this.arm(call, LINGER_MS, () => this.release(call));
  }

  /** Cancels the upstream call (abandoned by its caller) and forgets it. */
  abandon(call: ParkedCall, reason: unknown): void {
    call.upstream.abort(reason);
    this.release(call);
  }

  close(): void {
    for (const call of [...this.calls.values()]) this.abandon(call, new Error('The bridge closed.'));
  }

  private arm(call: ParkedCall, ms: number, fire: () => void): void {
    clearTimeout(this.timers.get(call.handle));
    const timer = setTimeout(fire, ms);
    timer.unref();
    this.timers.set(call.handle, timer);
  }

  private release(call: ParkedCall): void {
    this.uncount(call);
    if (!this.calls.delete(call.handle)) return;
    clearTimeout(this.timers.get(call.handle));
    this.timers.delete(call.handle);
  }

  private uncount(call: ParkedCall): void {
    if (!this.counted.delete(call)) return;
    const left = (this.perPrincipal.get(call.principal) ?? 1) - 1;
    if (left > 0) this.perPrincipal.set(call.principal, left);
    else this.perPrincipal.delete(call.principal);
  }
}
