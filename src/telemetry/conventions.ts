/**
 * Names from the OpenTelemetry semantic conventions for MCP (gen-ai/mcp.md) and the framework's own,
 * documented in docs/telemetry.md. Metric names of ours sit under `mcp.server.` beside the
 * conventions' one; attributes of ours are `mcp.flow.id` and the `mcp.ask.*` / `mcp.request_state.*` ones.
 */
export const Attr = {
  method: 'mcp.method.name',
  protocolVersion: 'mcp.protocol.version',
  sessionId: 'mcp.session.id',
  sessionPool: 'mcp.session.pool',
  requestId: 'jsonrpc.request.id',
  toolName: 'gen_ai.tool.name',
  promptName: 'gen_ai.prompt.name',
  operation: 'gen_ai.operation.name',
  resourceUri: 'mcp.resource.uri',
  transport: 'network.transport',
  errorType: 'error.type',
  statusCode: 'rpc.response.status_code',
  flowId: 'mcp.flow.id',
  askKind: 'mcp.ask.kind',
  askKey: 'mcp.ask.key',
  askOutcome: 'mcp.ask.outcome',
  refusalReason: 'mcp.request_state.refusal.reason',
} as const;

export const Metric = {
  duration: 'mcp.server.operation.duration',
  rounds: 'mcp.server.flow.rounds',
  asks: 'mcp.server.asks',
  refusals: 'mcp.server.request_state.refusals',
  stateSize: 'mcp.server.request_state.size',
  pendingAsks: 'mcp.server.legacy.pending_asks',
  listenStreams: 'mcp.server.listen.streams',
  sessionEvictions: 'mcp.server.legacy.session_evictions',
} as const;

/** The conventions' advised bucket boundaries for the operation duration (seconds). */
export const DURATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/** Methods recorded by name; any other (a client's invention) is recorded as `_OTHER` (bounded cardinality). */
export const KNOWN_METHODS: ReadonlySet<string> = new Set([
  'initialize',
  'ping',
  'logging/setLevel',
  'server/discover',
  'tools/list',
  'tools/call',
  'prompts/list',
  'prompts/get',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'completion/complete',
  'subscriptions/listen',
]);

/** How an ask ended: sent to the client (2026), answered, or failed on the held connection (legacy). */
export type AskOutcome = 'asked' | 'accept' | 'decline' | 'cancel' | 'error' | 'not_shown';

/** What the ask ports report: the question's kind and key and how it ended; never the answer. */
export type AskObserver = (kind: string, key: string, outcome: AskOutcome) => void;

/** The outcome an answer stands for: an elicitation's `action`, else (sampling, roots) `accept`. */
export function answerOutcome(kept: unknown): AskOutcome {
  const action = (kept as { action?: unknown } | null)?.action;
  return action === 'decline' || action === 'cancel' ? action : 'accept';
}

/** The ask kind of a request sent to the client (the names `AskKind` uses); none: a requestState-only pause. */
export function askKindOf(request: { method: string; params?: unknown } | undefined): string {
  switch (request?.method) {
    case undefined:
      return 'pause';
    case 'elicitation/create':
      return (request.params as { mode?: unknown } | undefined)?.mode === 'url' ? 'urlElicitation' : 'elicitation';
    case 'sampling/createMessage':
      return 'sampling';
    case 'roots/list':
      return 'roots';
    default:
      return 'other';
  }
}
