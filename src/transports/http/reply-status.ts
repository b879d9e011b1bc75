/** The HTTP status of a server reply: from its error code (protocol/http-status.ts), whoever raised it. */
import { httpStatusOfError } from '../../protocol/http-status';
import type { Era } from '../../protocol/versions';
import type { Reply } from '../../server/server-endpoint';

export function replyStatus(reply: Reply, era: Era): number {
  if (reply.missingEnvelope) return 400;
  const error = 'error' in reply.message ? reply.message.error : undefined;
  return error ? httpStatusOfError(error.code, era) : 200;
}
