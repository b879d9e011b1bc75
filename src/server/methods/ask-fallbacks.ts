/**
 * A tool call with a declared ask fallback: its ask port wrapped (`context/fallback-port.ts`), each
 * question no person saw logged and counted, and the call's end told to the approval flow. A call
 * whose question went to a page answers with the link and how to continue.
 */
import {
  APPROVAL_META_KEY,
  type ApprovalNeeded,
  type AskFallback,
  type AskFallbackOptions,
  type AskPolicy,
} from '../../context/ask-fallback';
import type { AskPort } from '../../context/ask-port';
import { ApprovalCompleted, FallbackAskPort, type UrlChannel } from '../../context/fallback-port';
import type { JsonObject, JsonRpcRequest } from '../../protocol/jsonrpc';
import type { CallToolResult } from '../../protocol/types';
import { APPROVAL_ARGUMENT, CONFIRM_ARGUMENT, withoutFallbackArgument } from '../../registry/declared-asks';
import type { ToolDefinition } from '../../registry/definitions';
import type { DeclaredAsks } from '../../registry/declared-asks';
import type { ServerCore } from '../core/server-core';
import { ENDED, type Ended } from '../replay/engine-types';
import type { RequestIO } from '../request/request-io';
import type { RequestScope } from '../request/request-scope';
import { telemetryOf } from '../request/request-telemetry-of';

/** The tool's fallback and thresholds; undefined when it has none (nothing is wrapped, nothing costs). */
export function fallbackPolicy(core: ServerCore, def: ToolDefinition): AskPolicy | undefined {
  const o = core.options.asks;
  const fallback = def.asks?.fallback ?? o.fallback;
  if (fallback === 'none') return undefined;
  return policyOf(fallback, o);
}

function policyOf(fallback: AskFallback, o: AskFallbackOptions): AskPolicy {
  const { minDeclineMs, answerDeadlineMs, retryHoldMs } = o;
  return { fallback, minDeclineMs, answerDeadlineMs, retryHoldMs };
}

/**
 * A prompt or resource: `deny` is the only fallback that fits (no call to end with a link, no
 * schema to extend), declared or app-wide; the port is wrapped for real attempts only.
 */
export function withDeny(
  core: ServerCore,
  def: { readonly name?: string; readonly owner: string; readonly asks?: DeclaredAsks },
  inner: AskPort,
  scope: RequestScope,
  attempt: unknown,
): AskPort {
  const o = core.options.asks;
  const fallback = def.asks?.fallback ?? (o.fallback === 'deny' ? 'deny' : 'none');
  if (fallback !== 'deny' || attempt === undefined) return inner;
  return new FallbackAskPort(inner, {
    policy: policyOf(fallback, o),
    capabilities: scope.clientCapabilities,
    call: { tool: def.name ?? def.owner, args: {} },
    report: (note) => {
      core.logger.warn(`ask not shown to a person: ${def.owner} used its fallback`, {
        ...note,
        handler: def.owner,
        client: scope.clientInfo?.name,
        revision: scope.protocolVersion,
      });
      telemetryOf(scope)?.ask(note.kind, note.key, 'not_shown');
    },
  });
}

export function withFallback(
  core: ServerCore,
  def: ToolDefinition,
  policy: AskPolicy,
  inner: AskPort,
  req: JsonRpcRequest,
  scope: RequestScope,
  io: RequestIO,
): FallbackAskPort {
  const params = req.params ?? {};
  const raw = isRecord(params.arguments) ? params.arguments : {};
  const meta = isRecord(params._meta) ? params._meta : {};
  const fromArgument = def.asks?.fallback === 'approvalPage' ? raw[APPROVAL_ARGUMENT] : undefined;
  const approvalId = typeof fromArgument === 'string' ? fromArgument : meta[APPROVAL_META_KEY];
  return new FallbackAskPort(inner, {
    policy,
    capabilities: scope.clientCapabilities,
    call: {
      principal: io.principal?.id,
      tool: def.name,
      args: withoutFallbackArgument(raw, def.asks) as Record<string, unknown>,
    },
    approvalId: typeof approvalId === 'string' ? approvalId : undefined,
    confirmArgument: def.asks?.fallback === 'argument' && raw[CONFIRM_ARGUMENT] === true,
    desk: core.approvals,
    channel: new RequestChannel(scope, io),
    report: (note) => {
      core.logger.warn(`ask not shown to a person: tool ${def.name} used its fallback`, {
        ...note,
        tool: def.name,
        client: scope.clientInfo?.name,
        revision: scope.protocolVersion,
      });
      telemetryOf(scope)?.ask(note.kind, note.key, 'not_shown');
    },
  });
}

/**
 * The call's result once the fallback had its say: a page question answers with the link; a
 * repeat of a finished approval flow with that flow's result; the flow is completed or released.
 */
export async function settleWithFallback(
  port: FallbackAskPort,
  def: ToolDefinition,
  produced: CallToolResult | Ended | Promise<CallToolResult | Ended>,
): Promise<CallToolResult | Ended> {
  let result: CallToolResult | Ended | undefined;
  try {
    result = await produced;
  } catch (e) {
    if (e instanceof ApprovalCompleted) return e.result as CallToolResult;
    // A question went to a page: whatever the handler threw after it, the call answers with the link.
    if (!port.approval) {
      await port.settle({ ok: false });
      throw e;
    }
  }
  // The attempt ended on an unanswered ask (the signal, as a value): as thrown above.
  if (result === ENDED && !port.approval) {
    await port.settle({ ok: false });
    return ENDED;
  }
  if (port.approval || result === undefined || result === ENDED) {
    await port.settle({ ok: false });
    return approvalResult(port.approval!, def);
  }
  await port.settle({ ok: true, value: result });
  return result;
}

/** Tells the model to show the link and call again; `_meta` carries the same for a host that reads it. */
export function approvalResult(a: ApprovalNeeded, def: ToolDefinition): CallToolResult {
  const how =
    def.asks?.fallback === 'approvalPage'
      ? `call ${def.name} again with the same arguments plus "${APPROVAL_ARGUMENT}": "${a.approvalId}"`
      : `call ${def.name} again with the same arguments and _meta["${APPROVAL_META_KEY}"] = "${a.approvalId}"`;
  const text =
    `This needs the user's answer, and this client cannot ask it. Show the user this link and ask them to open it: ${a.url}\n` +
    `The question: ${a.question}\n` +
    `Do not answer it yourself. When the user says they are done, ${how}. ` +
    `The link works once and expires at ${new Date(a.expiresAt).toISOString()}.`;
  const meta: JsonObject = { [APPROVAL_META_KEY]: { id: a.approvalId, url: a.url, expiresAt: a.expiresAt } };
  // A tool with an outputSchema must return structuredContent unless the result is an error.
  return def.outputSchema
    ? { content: [{ type: 'text', text }], isError: true, _meta: meta }
    : { content: [{ type: 'text', text }], _meta: meta };
}

/** A page question's URL elicitation goes out on the call's own channel (the signal is read only when used). */
class RequestChannel implements UrlChannel {
  readonly elicitationIds: boolean;

  constructor(
    scope: RequestScope,
    private readonly io: RequestIO,
  ) {
    this.elicitationIds = scope.era === 'legacy' && scope.protocolVersion === '2025-11-25';
  }

  get signal(): AbortSignal {
    return this.io.signal;
  }

  notify(method: string, params: JsonObject): void {
    this.io.notify({ jsonrpc: '2.0', method, params });
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
