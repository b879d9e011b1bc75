import { createHash } from 'node:crypto';
import {
  createRequestStateCodec,
  StateRefusal,
  type RequestStateCodec,
  type RequestStateOptions,
  type StateBinding,
  type StateRefusalReason,
} from '../../../src/state';

/** Deterministic, random-looking 32-byte keys. */
export function testKey(label: string): Buffer {
  return createHash('sha256').update(`test-key:${label}`).digest();
}

export const T0 = Date.UTC(2026, 7, 1, 12, 0, 0);

/** A settable clock for `deps.now`. */
export class FakeClock {
  constructor(public ms: number = T0) {}
  readonly now = (): number => this.ms;
  advance(ms: number): void {
    this.ms += ms;
  }
}

export function binding(overrides: Partial<StateBinding> = {}): StateBinding {
  return {
    method: 'tools/call',
    target: 'deploy',
    principal: 'alice',
    revision: '2026-07-28',
    params: { name: 'deploy', arguments: { env: 'prod', replicas: 3 }, _meta: { progressToken: 1 } },
    ...overrides,
  };
}

export function codec(options: Partial<RequestStateOptions> = {}, clock = new FakeClock()): RequestStateCodec {
  return createRequestStateCodec({ requestStateKey: testKey('main'), ...options }, { now: clock.now });
}

export const MODES: ReadonlyArray<readonly [string, boolean]> = [
  ['HMAC', false],
  ['AES-GCM', true],
];

/** The refusal reason of `promise`, failing the test if it resolves or throws anything else. */
export async function refusalOf(promise: Promise<unknown>): Promise<StateRefusalReason> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof StateRefusal) return error.reason;
    throw error;
  }
  throw new Error('expected a StateRefusal, but the state was accepted');
}

export const BASE64URL_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Decode the body of a token (after the prefix) without the strict checks, for surgery. */
export function splitToken(token: string): { prefix: string; bytes: Buffer } {
  const dot = token.indexOf('.');
  return { prefix: token.slice(0, dot + 1), bytes: Buffer.from(token.slice(dot + 1), 'base64url') };
}

export function joinToken(prefix: string, bytes: Uint8Array): string {
  return prefix + Buffer.from(bytes).toString('base64url');
}
