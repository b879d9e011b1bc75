/**
 * `subscriptions/listen` (2026-07-28): acknowledge the honoured filter, then forward matching
 * registry changes tagged with the subscription id until the client ends the stream. The stream
 * keeps only its id and its filter (the URIs bounded in bytes by `maxSubscriptionUriBytes`), never
 * the request; an update of a resource is sent only if the guards let this caller see it.
 */
import { ProtocolError } from '../../errors/protocol-error';
import type { JsonObject, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '../../protocol/jsonrpc';
import type { ListenFilter } from '../../protocol/listen';
import { Meta } from '../../protocol/meta';
import type { Implementation } from '../../protocol/types';
import { NO_RELEASE, type Registry, type RegistryEvent } from '../../registry/registry';
import { readModernEnvelope } from '../request/request-scope';

export interface Subscription {
  readonly ack: JsonRpcNotification;
  /** Starts forwarding matching registry changes to `send`. */
  forward(send: (n: JsonRpcNotification) => void): void;
  /** Stops forwarding; returns the graceful final result to send (if the stream is still open). */
  close(): JsonRpcResponse;
}

/** `notifications` is required by the 2026-07-28 schema (SubscriptionsListenRequestParams). */
function readFilter(params: JsonObject | undefined, limits: SubscriptionLimits): ListenFilter {
  const { maxUriLength, maxSubscriptionUriBytes } = limits;
  const n = params?.notifications;
  if (typeof n !== 'object' || n === null || Array.isArray(n)) {
    throw ProtocolError.invalidParams(
      'subscriptions/listen: params.notifications must be an object (the filter of notifications wanted)',
    );
  }
  const f = n as JsonObject;
  const out: ListenFilter = {};
  if (f.toolsListChanged === true) out.toolsListChanged = true;
  if (f.promptsListChanged === true) out.promptsListChanged = true;
  if (f.resourcesListChanged === true) out.resourcesListChanged = true;
  if (Array.isArray(f.resourceSubscriptions)) {
    const uris = f.resourceSubscriptions.filter((u): u is string => typeof u === 'string').slice(0, 1000);
    // Kept for the stream's lifetime and compared with every update: as bounded as resources/read's URI.
    if (uris.some((u) => u.length > maxUriLength)) {
      throw ProtocolError.invalidParams(
        `subscriptions/listen: a resourceSubscriptions URI is longer than ${maxUriLength} characters (maxUriLength)`,
      );
    }
    const bytes = uris.reduce((n, u) => n + Buffer.byteLength(u), 0);
    if (bytes > maxSubscriptionUriBytes) {
      throw ProtocolError.invalidParams(
        `subscriptions/listen: the resourceSubscriptions URIs take ${bytes} bytes, more than ` +
          `${maxSubscriptionUriBytes} (maxSubscriptionUriBytes); subscribe to a common prefix instead`,
      );
    }
    if (uris.length) out.resourceSubscriptions = uris;
  }
  return out;
}

/** Whether an updated URI falls under a subscribed one (equal, or a sub-resource of it). */
function covers(subscribed: string, updated: string): boolean {
  if (updated === subscribed) return true;
  if (!updated.startsWith(subscribed)) return false;
  return subscribed.endsWith('/') || '/?#'.includes(updated.charAt(subscribed.length));
}

export interface SubscriptionLimits {
  maxUriLength: number;
  maxSubscriptionUriBytes: number;
}

const UNLIMITED: SubscriptionLimits = { maxUriLength: Infinity, maxSubscriptionUriBytes: Infinity };

/** Whether this caller may hear about `uri` (its guards, asked as for a list); absent: everyone may. */
export type UriVisibility = (uri: string) => boolean | Promise<boolean>;

export function openSubscription(
  registry: Registry,
  req: JsonRpcRequest,
  serverInfo?: Implementation,
  limits: SubscriptionLimits = UNLIMITED,
  visible?: UriVisibility,
): Subscription {
  readModernEnvelope(req.params);
  const filter = readFilter(req.params, limits);
  const id = req.id;
  const tag = { [Meta.subscriptionId]: id };
  const ack: JsonRpcNotification = {
    jsonrpc: '2.0',
    method: 'notifications/subscriptions/acknowledged',
    params: { _meta: tag, notifications: filter },
  };
  const wants = (e: RegistryEvent): string | undefined => {
    if (e.type === 'listChanged') {
      const on = {
        tools: filter.toolsListChanged,
        prompts: filter.promptsListChanged,
        resources: filter.resourcesListChanged,
      }[e.list];
      return on ? `notifications/${e.list}/list_changed` : undefined;
    }
    return filter.resourceSubscriptions?.some((s) => covers(s, e.uri)) ? 'notifications/resources/updated' : undefined;
  };
  let unsubscribe: (() => void) | undefined;
  const releases: Array<() => void> = [];
  let closed = false;
  return {
    ack,
    forward: (send) => {
      if (closed || unsubscribe) return;
      // Each subscribed URI is told (a mount subscribes upstream) until the stream closes.
      for (const uri of filter.resourceSubscriptions ?? []) {
        const release = registry.watchResource(uri);
        if (release !== NO_RELEASE) releases.push(release);
      }
      unsubscribe = registry.subscribe((e) => {
        const method = wants(e);
        if (!method) return;
        const params: JsonObject = { _meta: tag };
        if (e.type !== 'resourceUpdated') return send({ jsonrpc: '2.0', method, params });
        params.uri = e.uri;
        const seen = visible ? visible(e.uri) : true;
        if (seen === true) return send({ jsonrpc: '2.0', method, params });
        if (seen instanceof Promise) {
          void seen.then(
            (ok) => ok && !closed && send({ jsonrpc: '2.0', method, params }),
            () => undefined,
          );
        }
      });
    },
    close: () => {
      closed = true;
      unsubscribe?.();
      unsubscribe = undefined;
      releases.splice(0).forEach((release) => release());
      // SubscriptionsListenResult: resultType, and _meta naming the stream (serverInfo as on every result).
      const _meta = serverInfo ? { ...tag, [Meta.serverInfo]: serverInfo } : tag;
      return { jsonrpc: '2.0', id, result: { resultType: 'complete', _meta } };
    },
  };
}
