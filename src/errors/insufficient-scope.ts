/**
 * The refusal of a call whose access token lacks scopes (`@RequireScopes`). On the wire a JSON-RPC
 * error with code -32003 and `data: { reason: 'insufficient_scope', scopes }`; over HTTP the
 * transport answers it 403 with `WWW-Authenticate: Bearer error="insufficient_scope", scope="…"`
 * so the client can ask its authorization server for more (step-up).
 */
import { ErrorCode } from '../protocol/error-codes';
import { ProtocolError } from './protocol-error';

/** In the implementation-defined range (-32000..-32019). */
export const INSUFFICIENT_SCOPE_CODE = ErrorCode.InsufficientScope;

export class MissingScopesError extends ProtocolError {
  /** `scopes`: every scope the operation needs (not only the missing ones), as the spec asks. */
  constructor(readonly scopes: readonly string[]) {
    super(INSUFFICIENT_SCOPE_CODE, `Insufficient scope: this needs ${scopes.join(' ')}`, {
      reason: 'insufficient_scope',
      scopes: [...scopes],
    });
  }
}

/** The scopes a JSON-RPC error says are needed, when it is an insufficient-scope refusal. */
export function neededScopes(error: { code: number; data?: unknown }): readonly string[] | undefined {
  if (error.code !== INSUFFICIENT_SCOPE_CODE) return undefined;
  const data = error.data as { reason?: unknown; scopes?: unknown } | undefined;
  if (data?.reason !== 'insufficient_scope' || !Array.isArray(data.scopes)) return undefined;
  return data.scopes.filter((s): s is string => typeof s === 'string');
}
