/**
 * A resource URI from request params, length-checked before anything matches templates against it
 * (a multi-megabyte URI would block the loop in the matcher and be kept by subscriptions).
 */
import { ProtocolError } from '../../errors/protocol-error';
import type { JsonObject } from '../../protocol/jsonrpc';

export function resourceUri(params: JsonObject | undefined, method: string, maxUriLength: number): string {
  const uri = params?.uri;
  if (typeof uri !== 'string') throw ProtocolError.invalidParams(`${method}: params.uri must be a string`);
  if (uri.length > maxUriLength) {
    throw ProtocolError.invalidParams(
      `${method}: params.uri is ${uri.length} characters long; at most ${maxUriLength} are accepted (maxUriLength)`,
    );
  }
  return uri;
}
