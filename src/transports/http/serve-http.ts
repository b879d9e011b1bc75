/**
 * `serveHttp(app, options)`: Streamable HTTP for both eras on node:http. Loopback by default with
 * DNS-rebinding protection; a public bind needs allowlists (or an explicit opt-out). `close()`
 * drains gracefully: no new requests, long-lived streams ended, in-flight calls finished.
 */
import { APPROVAL_PATH_SEGMENT } from '../../context/approval-pages';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Server as NetServer, type AddressInfo, type Socket } from 'node:net';
import { FrameworkError } from '../../errors/framework-error';
import type { EndpointHost } from '../../server/server-endpoint';
import { optionsError } from '../../config/validate-options';
import { hostPolicy } from './host-guard';
import { HttpEndpoint } from './http-endpoint';
import { isLoopbackHost, validateHttpOptions, type HttpOptions } from './http-options';
import { lingeringClose } from './lingering-close';
import { nodeHandlerFor } from './node-handler';
import { answerReadiness } from './readiness';
import { startReadinessThread } from './readiness-thread';

export interface HttpServerHandle {
  /** e.g. http://127.0.0.1:PORT/mcp */
  readonly url: string;
  readonly port: number;
  readonly server: Server;
  /** Stop accepting, finish in-flight requests, end streams; sockets destroyed after the deadline (default 25 s). */
  /**
   * Drains and closes. `withdrawAsks`: questions still waiting on a client are withdrawn at once (the
   * call ends with the reason) instead of waiting for an answer until the deadline — for a developer's
   * restart; a fleet drain leaves it off, so a legacy ask pending at SIGTERM completes when answered.
   */
  close(options?: { deadlineMs?: number; withdrawAsks?: boolean }): Promise<void>;
  /** The port of the readiness thread, with `readinessPort`. */
  readonly readinessPort?: number;
}

export async function serveHttp(app: EndpointHost, options: Partial<HttpOptions> = {}): Promise<HttpServerHandle> {
  const opts = validateHttpOptions(options);
  const loopback = isLoopbackHost(opts.host);
  if (!loopback && !opts.allowedHosts && !opts.dangerouslyAllowAnyHost) {
    throw optionsError('HttpOptions', [
      {
        field: 'host',
        message: `binding ${opts.host} (not loopback) needs allowedHosts (and allowedOrigins for browsers), or dangerouslyAllowAnyHost: true behind a proxy that checks Host and Origin`,
      },
    ]);
  }
  const { logger, ephemeralStateKey, processLocalFlowStore } = app.endpoint.settings;
  if (!loopback && ephemeralStateKey) {
    logger.warn(
      'requestState is sealed with an ephemeral per-process key: input_required flows break across restarts and instances. Set ContextServerOptions.requestStateKey.',
    );
  }
  if (!ephemeralStateKey && processLocalFlowStore) {
    // A shared key lets flows hop instances; the exactly-once records do not follow them.
    logger.warn(
      'exactly-once holds per instance only: flows are recorded in memory. With several instances sharing requestStateKey, share the stores: RedisModule.configure({ url }) from onemodelcontext/redis (docs/deployment.md), or a flowStore of your own.',
    );
  }
  // Shared stores (Redis) must answer before the first request: a fleet half connected fails here, clearly.
  await app.endpoint.settings.ready();
  const endpoint = new HttpEndpoint(app.endpoint, opts, hostPolicy(opts, opts.port || undefined));
  const mcp = nodeHandlerFor(endpoint, { matchPath: true });
  const { readinessPath } = opts;
  const facts = {
    path: readinessPath ?? '/ready',
    stateKeyFingerprint: app.endpoint.settings.stateKeyFingerprint(),
    draining: () => endpoint.draining,
    storesReachable: () => app.endpoint.settings.storesReachable(),
  };
  const readiness = readinessPath ? facts : undefined;
  const handler = readiness
    ? (req: IncomingMessage, res: ServerResponse): void => void (answerReadiness(req, res, readiness) || mcp(req, res))
    : mcp;
  const server = createServer(
    {
      maxHeaderSize: opts.maxHeaderBytes,
      headersTimeout: opts.headersTimeoutMs,
      requestTimeout: opts.requestTimeoutMs,
      keepAliveTimeout: opts.keepAliveTimeoutMs,
      // Node enforces the two timeouts above only on this tick (30 s by default): keep it well inside them.
      connectionsCheckingInterval: checkingInterval(opts.headersTimeoutMs, opts.requestTimeoutMs),
    },
    handler,
  );
  // A reset socket or a client error must never take the process down (CVE-2025-53365 class). The
  // answer comes before the request was read (431 mid-headers): the close lingers, so it is not reset.
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    const status = CLIENT_ERROR_STATUS[err.code ?? ''] ?? '400 Bad Request';
    if (!socket.writable) return void socket.destroy();
    socket.write(`HTTP/1.1 ${status}\r\nConnection: close\r\n\r\n`);
    lingeringClose(socket);
  });
  await new Promise<void>((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) => reject(listenError(error, opts.host, opts.port));
    server.once('error', failed);
    server.listen(opts.port, opts.host, () => {
      server.off('error', failed);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  endpoint.setPolicy(hostPolicy(opts, port));
  const hostForUrl = opts.host.includes(':') && !opts.host.startsWith('[') ? `[${opts.host}]` : opts.host;
  // Approval links point here unless `asks.approvalBaseUrl` says where the public address is.
  endpoint.ctx.server.settings.approvalPages?.setBaseUrl(`http://${hostForUrl}:${port}${approvalBase(opts.path)}`);
  const thread =
    opts.readinessPort === undefined
      ? undefined
      : await startReadinessThread(facts, { host: opts.host, port: opts.readinessPort }).catch(async (e: unknown) => {
          server.close();
          throw e;
        });
  let closing: Promise<void> | undefined;
  return {
    url: `http://${hostForUrl}:${port}${opts.path}`,
    port,
    server,
    readinessPort: thread?.port,
    close: ({ deadlineMs = 25_000, withdrawAsks = false } = {}) =>
      (closing ??= shutdown(
        server,
        endpoint,
        deadlineMs,
        Math.min(opts.drainQuietMs, opts.keepAliveTimeoutMs),
        withdrawAsks,
      ).finally(() => thread?.close())),
  };
}

/** `<path>/approval`: the approval pages' base path under the endpoint's. */
function approvalBase(path: string): string {
  return path.replace(/\/+$/, '') + APPROVAL_PATH_SEGMENT.slice(0, -1);
}

/** node:http parser errors that have a more precise status than 400. */
const CLIENT_ERROR_STATUS: Readonly<Record<string, string>> = {
  ERR_HTTP_REQUEST_TIMEOUT: '408 Request Timeout',
  HPE_HEADER_OVERFLOW: '431 Request Header Fields Too Large',
};

function checkingInterval(headersTimeoutMs: number, requestTimeoutMs: number): number {
  const tightest = requestTimeoutMs > 0 ? Math.min(headersTimeoutMs, requestTimeoutMs) : headersTimeoutMs;
  return Math.max(100, Math.min(1000, Math.floor(tightest / 4)));
}

/**
 * Drains, then closes. A server without legacy sessions stops accepting at once (a proxy's new
 * connection is refused: it retries elsewhere, nothing sent). One that holds sessions keeps
 * accepting while it drains, since a session's answer may come on a new connection; new work gets
 * 503 with `Connection: close`, which a proxy re-sends elsewhere. Every answer given while draining
 * closes its connection; the connections left idle are closed only after `drainQuietMs` since the
 * drain began and since the last request from before it was answered: a proxy must not be sending
 * on one the moment it closes, and one that keeps sending during the drain does not hold it open.
 */
async function shutdown(
  server: Server,
  endpoint: HttpEndpoint,
  deadlineMs: number,
  quietMs: number,
  withdrawAsks: boolean,
): Promise<void> {
  const started = Date.now();
  const left = (): number => Math.max(0, deadlineMs - (Date.now() - started));
  let stopped = endpoint.holdsSessions ? undefined : stopAccepting(server);
  await endpoint.shutdown(deadlineMs, withdrawAsks);
  stopped ??= stopAccepting(server);
  await quietFor(endpoint, server, quietMs, left());
  server.closeIdleConnections();
  // Responses are written; give sockets a moment to flush, then force the rest.
  const timer = setTimeout(() => server.closeAllConnections(), Math.min(left(), 1000));
  await stopped;
  clearTimeout(timer);
}

/**
 * Stops accepting connections and resolves once the open ones ended. net.Server's own close:
 * http.Server's also closes idle keep-alive connections at once, which races a proxy's next request.
 */
function stopAccepting(server: Server): Promise<void> {
  return new Promise((resolve) => NetServer.prototype.close.call(server, () => resolve()));
}

/** Resolves once no request arrived for `quietMs` (or no connection is left), at most after `limitMs`. */
async function quietFor(endpoint: HttpEndpoint, server: Server, quietMs: number, limitMs: number): Promise<void> {
  const giveUpAt = Date.now() + limitMs;
  const connections = () => new Promise<number>((r) => server.getConnections((_e, n) => r(n ?? 0)));
  for (;;) {
    const quietAt = endpoint.lastRequestAt + quietMs;
    const now = Date.now();
    if (now >= quietAt || now >= giveUpAt || (await connections()) === 0) return;
    await new Promise((r) => setTimeout(r, Math.min(quietAt, giveUpAt) - now));
  }
}

/** A port in use or refused says which one and what to do, instead of Node's bare EADDRINUSE stack. */
function listenError(error: NodeJS.ErrnoException, host: string, port: number): Error {
  const where = `${host}:${port}`;
  const hint =
    error.code === 'EADDRINUSE'
      ? `${where} is already in use (another server, or an earlier run still going): stop it, or pick another port (the port option, or PORT)`
      : error.code === 'EACCES'
        ? `${where} needs privileges to bind: use a port above 1023`
        : error.code === 'EADDRNOTAVAIL'
          ? `${host} is not an address of this machine: use 127.0.0.1, or 0.0.0.0 with allowedHosts`
          : undefined;
  if (!hint) return error;
  return new FrameworkError('OMC_TRANSPORT', `serveHttp cannot listen: ${hint}.`, { cause: error });
}
