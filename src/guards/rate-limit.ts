/**
 * `RateLimit({ capacity, refillPerSecond })`: a guard class (for `@UseGuards` or the app-wide
 * list) holding a token bucket per principal and per handler in the app's TokenBucketStore (in
 * memory, or Redis with RedisModule: the limit then holds across the fleet). A flow counts as one
 * call: it takes its token at the first round (`everyRound: true` charges each round). A refusal is
 * a JSON-RPC error saying when to retry; lists are never limited. Anonymous callers share one
 * bucket unless `anonymousKey: 'clientAddress'` gives each client address its own.
 */
import { inject, injectable } from 'tsyringe';
import { ProtocolError } from '../errors/protocol-error';
import { TOKEN_BUCKETS } from '../server/fleet/shared-stores';
import type { CanActivate, ExecutionContext } from '../server/pipeline/types';
import { checkedRule, type TokenBucketStore } from '../state/token-bucket';

/** The code of a rate-limit refusal: implementation-defined server error (docs/errors.md). */
export const RATE_LIMITED = -32000;

export interface RateLimitOptions {
  /** Calls a bucket holds (the burst). */
  capacity: number;
  /** Calls that come back per second. */
  refillPerSecond: number;
  /**
   * What one bucket counts: each principal on each handler (default), a principal across them, or a
   * handler across callers.
   */
  per?: 'principal+handler' | 'principal' | 'handler';
  /** Tokens a call takes (default 1). */
  cost?: number;
  /** Charge every round of a 2026 flow, not just the first. */
  everyRound?: boolean;
  /** Keeps two limiters with the same settings apart in one store. */
  name?: string;
  /**
   * Callers without a principal: one bucket for all of them (`'shared'`, default: one anonymous client
   * can exhaust it for every other), or one per client address (`'clientAddress'`: the socket's peer, or
   * a `trustedProxies` entry's X-Forwarded-For; where the transport knows no address, e.g. stdio or the
   * fetch adapter, the shared bucket).
   */
  anonymousKey?: 'shared' | 'clientAddress';
}

export type RateLimitGuardClass = new (store: TokenBucketStore) => CanActivate;

function handlerKey(ctx: ExecutionContext): string {
  // A template's calls share its bucket whatever the URI; a run-time function by its name or URI.
  const handler = ctx.handlerClass && ctx.handlerMethod ? `${ctx.handlerClass.name}.${ctx.handlerMethod}` : ctx.target;
  return `${ctx.kind}:${handler}`;
}

export function RateLimit(options: RateLimitOptions): RateLimitGuardClass {
  const { capacity, refillPerSecond, cost } = options;
  const rule = checkedRule({ capacity, refillPerSecond, cost });
  const per = options.per ?? 'principal+handler';
  if (!['principal+handler', 'principal', 'handler'].includes(per)) {
    throw new RangeError(`RateLimit: per must be 'principal+handler', 'principal' or 'handler', got ${String(per)}`);
  }
  const anonymousKey = options.anonymousKey ?? 'shared';
  if (!['shared', 'clientAddress'].includes(anonymousKey)) {
    throw new RangeError(`RateLimit: anonymousKey must be 'shared' or 'clientAddress', got ${String(anonymousKey)}`);
  }
  const prefix = `rl:${options.name ?? `${rule.capacity}/${rule.refillPerSecond}/${rule.cost}`}:${per}`;

  @injectable()
  class RateLimitGuard implements CanActivate {
    constructor(@inject(TOKEN_BUCKETS) private readonly store: TokenBucketStore) {}

    async canActivate(ctx: ExecutionContext): Promise<boolean> {
      if (ctx.phase === 'list') return true;
      if (!options.everyRound && ctx.flow && !ctx.flow.firstRound) return true;
      const who = ctx.principal
        ? `p:${ctx.principal.id}`
        : anonymousKey === 'clientAddress' && ctx.clientAddress !== undefined
          ? `a:${ctx.clientAddress}`
          : 'anonymous';
      const key =
        per === 'principal'
          ? `${prefix}:${who}`
          : per === 'handler'
            ? `${prefix}:${handlerKey(ctx)}`
            : `${prefix}:${who}:${handlerKey(ctx)}`;
      const taken = await this.store.take(key, rule);
      if (taken.allowed) return true;
      const seconds = Math.max(1, Math.ceil(taken.retryAfterMs / 1000));
      throw new ProtocolError(
        RATE_LIMITED,
        `Rate limit exceeded for ${ctx.kind} ${ctx.target}: retry in ${seconds} s`,
        { reason: 'rate_limited', retryAfterMs: taken.retryAfterMs, retryAfterSeconds: seconds },
      );
    }
  }
  return RateLimitGuard;
}
