/**
 * An upstream server's question, relayed as one of our asks: the embedded request goes to our
 * caller as the upstream wrote it (2026 `inputRequests`, or a real request on a legacy session),
 * and the answer comes back checked only for its shape — the upstream judges its content.
 */
import type { Ask, AskDecoding, AskKind } from '../context/asks';
import { Capabilities } from '../context/asks';
import type { JsonObject } from '../protocol/jsonrpc';
import type { ClientCapabilities, InputRequest } from '../protocol/types';

/** The methods an upstream may ask our caller. */
export const RELAYED_METHODS = ['elicitation/create', 'sampling/createMessage', 'roots/list'] as const;

export function relayAsk(method: string, params: JsonObject | undefined): Ask<JsonObject> {
  const request = { method, params: params ?? {} } as unknown as InputRequest;
  const { kind, requires, supportedBy } = needs(method, params ?? {});
  return { kind, request, requires, supportedBy, decode: (answer) => decodeAnswer(method, answer) };
}

function needs(
  method: string,
  params: JsonObject,
): { kind: AskKind; requires: Record<string, unknown>; supportedBy: (c: ClientCapabilities) => boolean } {
  switch (method) {
    case 'elicitation/create':
      return params.mode === 'url'
        ? { kind: 'urlElicitation', requires: { elicitation: { url: {} } }, supportedBy: Capabilities.urlElicitation }
        : { kind: 'elicitation', requires: { elicitation: { form: {} } }, supportedBy: Capabilities.formElicitation };
    case 'sampling/createMessage':
      return params.tools !== undefined
        ? { kind: 'sampling', requires: { sampling: { tools: {} } }, supportedBy: Capabilities.samplingTools }
        : { kind: 'sampling', requires: { sampling: {} }, supportedBy: Capabilities.sampling };
    default:
      return { kind: 'roots', requires: { roots: {} }, supportedBy: Capabilities.roots };
  }
}

/** The answer's shape for its method; anything else is asked again with the reason. */
function decodeAnswer(method: string, answer: unknown): AskDecoding<JsonObject> {
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) {
    return { ok: false, reason: 'the answer must be an object' };
  }
  const a = answer as JsonObject;
  const bad =
    method === 'elicitation/create'
      ? !['accept', 'decline', 'cancel'].includes(a.action as string) && 'action must be accept, decline or cancel'
      : method === 'sampling/createMessage'
        ? (typeof a.role !== 'string' || a.content === undefined) && 'a sampling answer needs role and content'
        : !Array.isArray(a.roots) && 'a roots answer needs a roots array';
  return bad ? { ok: false, reason: bad } : { ok: true, value: a, kept: a };
}
