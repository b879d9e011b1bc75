/**
 * The tokens this process sealed whose next round has not come back yet, with the claims they carry.
 * Most rounds return to the instance that sealed them; a token equal, character for character, to one
 * minted here is authentic (its MAC or GCM tag is ours), so its claims are read from here instead of
 * decoding, verifying or decrypting it again. Every check after that (times, audience, binding, single
 * use) runs as for any token. A miss — another instance's token, a restart, an entry let go, a second
 * opening of the same token — takes the full path, so nothing depends on this beyond speed.
 *
 * Looked up by the token's last characters (its MAC or tag: unknowable without the key, so a forged
 * token never meets an entry), then compared whole. Bounded by count and by bytes, oldest first out; an
 * entry goes once opened. The claims (the payload included, in AES-GCM mode too) stay in this process's
 * memory meanwhile, as the flow itself did while its round ran, with the canonical text of the params they
 * bind (its digest is in the claims): the returning round compares its params' text with it instead of
 * hashing (issue 34), so that check stays exactly as strict.
 */
import type { ClaimsDraft, StateClaims } from './claims';
import type { DerivedStateKey } from './key-ring';

/** Base64url characters looked up: 22 of them carry 132 bits of the MAC or tag. */
const TAIL_CHARS = 22;
export const MAX_MINTED_TOKENS = 4096;
/** Token characters plus payload JSON and params text characters kept, in all. */
export const MAX_MINTED_BYTES = 4 * 1024 * 1024;

interface Minted {
  readonly token: string;
  readonly key: DerivedStateKey;
  readonly claims: ClaimsDraft;
  /** The payload object itself, when its sealer handed it over (see `remember`); else it is parsed from its JSON. */
  readonly payload: object | undefined;
  /** The canonical text of the params `claims.pd` digests, when short enough to keep. */
  readonly paramsText: string | undefined;
  readonly bytes: number;
}

export interface MintedClaims {
  key: DerivedStateKey;
  claims: StateClaims;
  /** The canonical params text `claims.pd` is the digest of (absent when it was too long to keep). */
  paramsText?: string;
}

/**
 * Entries set between two fresh maps. A Map whose table has reached the old generation (it sat through two
 * young-generation GCs, as at start-up) gets every later table there too, and V8 leaves a replaced table
 * holding what it held until the next full GC: under steady churn the young GC then keeps the entries those
 * old copies point at, and promotes them with their tokens and claims (issue 34: about 1.5 KB a flow, and
 * scavenges 1.7× as costly, helper threads included). A fresh Map's tables are young and die young. The copy
 * is of the live entries only: a few dozen under load, at most MAX_MINTED_TOKENS (four per token set, amortized).
 */
const RENEW_EVERY = 1024;

/** A params text longer than this is not kept: its round hashes the params again. */
export const MAX_KEPT_PARAMS_CHARS = 4096;

export class MintedTokens {
  private byTail = new Map<string, Minted>();
  private bytes = 0;
  private setsSinceRenewal = 0;

  /**
   * `payload`, when given, is what `claims.payloadJson` was made from, handed over by its sealer: nothing else
   * holds or changes it, and it reads as JSON.parse of that text would. The token then reopens to this very
   * object (handed out once, as the entry goes) instead of parsing the text again (issue 34).
   */
  remember(token: string, key: DerivedStateKey, claims: ClaimsDraft, payload?: object, paramsText?: string): void {
    const kept = paramsText !== undefined && paramsText.length <= MAX_KEPT_PARAMS_CHARS ? paramsText : undefined;
    const bytes = token.length + (claims.payloadJson?.length ?? 0) + (kept?.length ?? 0);
    if (bytes > MAX_MINTED_BYTES) return;
    const tail = token.slice(-TAIL_CHARS);
    this.drop(tail);
    while (this.byTail.size >= MAX_MINTED_TOKENS || this.bytes + bytes > MAX_MINTED_BYTES) {
      this.drop(this.byTail.keys().next().value!);
    }
    if (++this.setsSinceRenewal >= RENEW_EVERY) {
      this.setsSinceRenewal = 0;
      this.byTail = new Map(this.byTail);
    }
    this.byTail.set(tail, { token, key, claims, payload, paramsText: kept, bytes });
    this.bytes += bytes;
  }

  /** The claims of `token` when this process minted it and it was not opened since; the entry goes. */
  take(token: string): MintedClaims | undefined {
    if (token.length < TAIL_CHARS) return undefined;
    const tail = token.slice(-TAIL_CHARS);
    const minted = this.byTail.get(tail);
    if (minted === undefined || minted.token !== token) return undefined;
    this.byTail.delete(tail);
    this.bytes -= minted.bytes;
    return { key: minted.key, claims: new KeptClaims(minted.claims, minted.payload), paramsText: minted.paramsText };
  }

  private drop(tail: string): void {
    const minted = this.byTail.get(tail);
    if (minted === undefined) return;
    this.byTail.delete(tail);
    this.bytes -= minted.bytes;
  }
}

/**
 * What decodeClaims would read back from the sealed bytes. The token id is encoded when read: only a codec
 * with single-use tokens reads it (issue 34: a base64url call into node per flow otherwise).
 */
class KeptClaims implements StateClaims {
  readonly iat: number;
  readonly exp: number;
  readonly fst: number;
  readonly pd: string;
  readonly pt: string | undefined;
  readonly aud: string;
  readonly rev: string;
  readonly m: string;
  readonly t: string;
  readonly p?: unknown;
  private readonly id: Buffer;

  constructor(d: ClaimsDraft, payload: object | undefined) {
    this.id = d.jti;
    this.iat = d.iat;
    this.exp = d.exp;
    this.fst = d.fst;
    this.pd = d.pd;
    this.pt = d.pt;
    this.aud = d.aud;
    this.rev = d.rev;
    this.m = d.m;
    this.t = d.t;
    if (d.payloadJson !== undefined) this.p = payload ?? JSON.parse(d.payloadJson);
  }

  get jti(): string {
    return this.id.toString('base64url');
  }
}
