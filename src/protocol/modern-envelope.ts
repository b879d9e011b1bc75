/**
 * The required fields of the 2026-07-28 `_meta` request envelope (digest §1.1), checked in the
 * order the spec gives. Pure. A missing field is -32602 with HTTP status 400 (digest §2), where
 * -32602 is otherwise 200: the server decides that status where it finds the fault (its reply
 * carries it), and the error itself carries none.
 */
import type { JsonObject } from './jsonrpc';
import { Meta } from './meta';
import { MODERN_VERSION } from './versions';

export type EnvelopeCheck =
  /** Every required field is there; `meta` is the envelope. */
  | { kind: 'whole'; meta: JsonObject }
  /** A required field is absent (-32602; 400 on HTTP). */
  | { kind: 'missing'; message: string }
  /** The claimed revision is not one we speak (-32022). */
  | { kind: 'unsupported'; version: string };

function isRecord(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function missing(what: string): EnvelopeCheck {
  return { kind: 'missing', message: `Invalid request metadata: ${what}` };
}

/** The envelope of `params`, or its first fault. */
export function checkEnvelope(params: JsonObject | undefined): EnvelopeCheck {
  const meta = params?._meta;
  if (!isRecord(meta)) return missing('params._meta is required');
  const version = meta[Meta.protocolVersion];
  if (typeof version !== 'string') return missing(`_meta["${Meta.protocolVersion}"] is required`);
  if (version !== MODERN_VERSION) return { kind: 'unsupported', version };
  if (!isRecord(meta[Meta.clientCapabilities]))
    return missing(`_meta["${Meta.clientCapabilities}"] is required (use {} for none)`);
  return { kind: 'whole', meta };
}
