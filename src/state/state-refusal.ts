/** Why an echoed requestState was refused. Logged server-side only; the wire error is uniform. */
export type StateRefusalReason =
  | 'not_a_string'
  | 'oversize'
  | 'malformed'
  | 'unknown_key'
  | 'bad_mac'
  | 'decrypt_failed'
  | 'wrong_mode'
  | 'expired'
  | 'future_iat'
  | 'flow_expired'
  | 'audience'
  | 'binding'
  | 'principal'
  | 'revision'
  | 'replayed';

/**
 * Thrown by `RequestStateCodec.open`. The message never contains the payload or the token,
 * so it is safe to log; the dispatcher turns every refusal into the same -32602 error.
 */
export class StateRefusal extends Error {
  override readonly name = 'StateRefusal';
  constructor(
    readonly reason: StateRefusalReason,
    readonly detail?: string,
  ) {
    super(detail === undefined ? `requestState refused: ${reason}` : `requestState refused: ${reason} (${detail})`);
  }
}
