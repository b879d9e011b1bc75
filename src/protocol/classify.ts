/**
 * Era classification of one inbound message (digest §1.4). Pure: transports feed it the parsed
 * body and, on HTTP, the version header; it says which era's dispatch takes the message.
 */
import { Meta } from './meta';
import { eraOfClaim, type Era } from './versions';
import type { JsonObject } from './jsonrpc';

export type Classification =
  | { era: 'modern'; claimedVersion: string }
  | { era: 'legacy' }
  | { era: 'invalid'; reason: string };

/** The `_meta` protocolVersion claim of a params object, if any. */
export function envelopeClaim(params: JsonObject | undefined): unknown {
  const meta = params?._meta;
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return undefined;
  return Object.prototype.hasOwnProperty.call(meta, Meta.protocolVersion)
    ? (meta as JsonObject)[Meta.protocolVersion]
    : undefined;
}

/**
 * A claim names the modern era when it is a date at or after 2026-07-28; a non-date claim
 * (say "v999.0.0") still claims the modern envelope so the version check answers -32022.
 */
export function classifyMessage(params: JsonObject | undefined, versionHeader?: string): Classification {
  const claim = envelopeClaim(params);
  if (claim !== undefined) {
    if (typeof claim !== 'string') return { era: 'invalid', reason: 'protocolVersion must be a string' };
    const era: Era | undefined = eraOfClaim(claim);
    if (era === 'legacy') return { era: 'legacy' };
    return { era: 'modern', claimedVersion: claim };
  }
  if (versionHeader !== undefined && eraOfClaim(versionHeader.trim()) === 'modern') {
    return { era: 'modern', claimedVersion: versionHeader.trim() };
  }
  return { era: 'legacy' };
}
