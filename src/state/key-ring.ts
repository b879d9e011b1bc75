/**
 * The ring of requestState keys: the first key mints, every key verifies. Each configured key
 * is expanded with HKDF-SHA256 into one sub-key per purpose, so no key ever serves two
 * algorithms, and the raw key is not kept once its sub-keys exist (from the first seal or open).
 */
import { hkdfSync, randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { FrameworkError } from '../errors/framework-error';
import { HmacSha256 } from './hmac-sha256';
import { MIN_KEY_BYTES, parseKeyRingInput } from './key-material';

export const KID_BYTES = 4;
const FINGERPRINT_BYTES = 8;
const HKDF_SALT = Buffer.from('onemodelcontext/request-state', 'utf8');

/** The sub-keys of one configured key. `kid` is public; the others are secret. */
export interface DerivedStateKey {
  readonly kid: Buffer;
  readonly macKey: Buffer;
  /** HMAC-SHA256 keyed with macKey: the pads are computed once per key, not per token. */
  readonly mac: HmacSha256;
  readonly encKey: Buffer;
  readonly bindingKey: Buffer;
}

export function deriveSubKey(key: Uint8Array, purpose: string, length = 32): Buffer {
  return Buffer.from(hkdfSync('sha256', key, HKDF_SALT, `omc/request-state/v1/${purpose}`, length));
}

function fingerprintOf(key: Buffer): string {
  return deriveSubKey(key, 'fingerprint', FINGERPRINT_BYTES).toString('hex');
}

function deriveStateKey(key: Buffer): DerivedStateKey {
  const macKey = deriveSubKey(key, 'mac');
  return {
    kid: deriveSubKey(key, 'kid', KID_BYTES),
    macKey,
    mac: new HmacSha256(macKey),
    encKey: deriveSubKey(key, 'enc'),
    bindingKey: deriveSubKey(key, 'binding'),
  };
}

export class KeyRing {
  /**
   * The configured keys (an ephemeral ring draws its key on first use) until the first seal or open
   * derives their sub-keys; then zeroed and dropped.
   */
  private raw: Buffer[] | undefined;
  private derived: readonly DerivedStateKey[] | undefined;
  private hexFingerprint: string | undefined;

  private constructor(
    raw: Buffer[] | undefined,
    /** True when no key was configured and a per-process random key is in use. */
    readonly ephemeral: boolean,
    private readonly random: (n: number) => Buffer,
  ) {
    this.raw = raw;
  }

  /**
   * From the `requestStateKey` option; undefined means an ephemeral random key. The keys are parsed
   * (and refused) here. An ephemeral key is drawn, and HKDF runs, on first use (the fingerprint, a seal
   * or an open): a stdio app that never seals loads no node:crypto to start. A ring of several keys
   * derives at once: key ids that clash are a configuration error.
   */
  static fromOption(option: unknown, random: (n: number) => Buffer = randomBytes): KeyRing {
    const ephemeral = option === undefined;
    const ring = new KeyRing(ephemeral ? undefined : parseKeyRingInput(option), ephemeral, random);
    if (ring.size > 1) ring.derive();
    return ring;
  }

  /** Hex of 8 bytes of HKDF(minting key, 'fingerprint'): compare it across instances, it reveals nothing. */
  get fingerprint(): string {
    return (this.hexFingerprint ??= fingerprintOf(this.material()[0]!));
  }

  private get keys(): readonly DerivedStateKey[] {
    return this.derived ?? this.derive();
  }

  /** The raw keys, before derive() drops them: the ephemeral key is drawn on the first call. */
  private material(): Buffer[] {
    return (this.raw ??= [ephemeralKey(this.random)]);
  }

  private derive(): readonly DerivedStateKey[] {
    const raw = this.material();
    const derived = raw.map(deriveStateKey);
    for (let i = 0; i < derived.length; i++) {
      for (let j = 0; j < i; j++) {
        if (derived[i]!.kid.equals(derived[j]!.kid)) {
          throw new FrameworkError(
            'OMC_INVALID_OPTIONS',
            `requestStateKey[${i}] and requestStateKey[${j}] share a key id; replace one of them with a fresh random key.`,
          );
        }
      }
    }
    this.hexFingerprint ??= fingerprintOf(raw[0]!);
    for (const key of raw) key.fill(0); // only the derived sub-keys are kept
    this.raw = undefined;
    return (this.derived = derived);
  }

  get size(): number {
    return (this.derived ?? this.raw)?.length ?? 1;
  }

  get minting(): DerivedStateKey {
    return this.keys[0]!;
  }

  /** The key whose id is `kid`, or undefined. Key ids are public, so a plain comparison is fine. */
  find(kid: Uint8Array): DerivedStateKey | undefined {
    return this.keys.find((key) => key.kid.equals(kid));
  }

  /** Never print key material, whether through JSON.stringify or console/util.inspect. */
  toJSON(): { fingerprint: string; size: number; ephemeral: boolean } {
    return { fingerprint: this.fingerprint, size: this.size, ephemeral: this.ephemeral };
  }

  [inspect.custom](): string {
    return `KeyRing { fingerprint: '${this.fingerprint}', size: ${this.size}, ephemeral: ${this.ephemeral} }`;
  }
}

/** A per-process key; where random bytes are refused (a Workers global scope) the error says what to do. */
function ephemeralKey(random: (n: number) => Buffer): Buffer {
  try {
    return random(MIN_KEY_BYTES);
  } catch (error) {
    throw new FrameworkError(
      'OMC_INVALID_OPTIONS',
      `no requestStateKey is set, and this runtime refused the random bytes of an ephemeral key here ` +
        `(${(error as Error).message}). Set requestStateKey (from a secret): on an edge runtime every isolate ` +
        `would otherwise seal with its own key, and a round served by another one would be refused.`,
      { cause: error },
    );
  }
}
