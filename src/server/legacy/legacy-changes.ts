/**
 * What an initialized legacy session hears without asking: list changes, and updates of the
 * resources it subscribed to (`resources/subscribe`). Every legacy transport sends these; stopping
 * ends the session's subscriptions.
 */
import type { JsonRpcNotification } from '../../protocol/jsonrpc';
import type { Registry, RegistryListener } from '../../registry/registry';
import type { LegacySession } from './legacy-session';

export function followChanges(
  registry: Registry,
  session: LegacySession,
  send: (n: JsonRpcNotification) => void,
): () => void {
  const listener: RegistryListener = (e) => {
    if (e.type === 'listChanged') send({ jsonrpc: '2.0', method: `notifications/${e.list}/list_changed` });
    else if (session.isSubscribed(e.uri)) {
      send({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: e.uri } });
    }
  };
  registry.subscribe(listener);
  // The session is over: its subscriptions end (a mount unsubscribes upstream).
  return () => {
    registry.unsubscribe(listener);
    session.unsubscribe();
  };
}
