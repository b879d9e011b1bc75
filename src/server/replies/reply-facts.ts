/** What telemetry reads of a reply: its error code and message, or whether a tool result is an error. */
import type { JsonRpcResponse } from '../../protocol/jsonrpc';
import type { ReplyFacts } from '../../telemetry/request-telemetry';

export function replyFacts(message: JsonRpcResponse): ReplyFacts {
  if ('error' in message) return { errorCode: message.error.code, errorMessage: message.error.message };
  const result = message.result as { isError?: unknown; resultType?: unknown };
  return result.isError === true ? { toolError: true } : {};
}
