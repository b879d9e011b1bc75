/**
 * `listen`: change notifications as an async iterable. 2026 opens `subscriptions/listen` (closing
 * it aborts the stream on HTTP, or sends notifications/cancelled on stdio); legacy filters the
 * session's unsolicited notifications and subscribes resources with `resources/subscribe`.
 */
import type { JsonRpcNotification } from '../protocol/jsonrpc';
import { AsyncQueue } from './async-queue';
import type { ClientSession } from './client-session';
import type { ChangeNotification, ListenFilter } from '../protocol/listen';

export class Subscription extends AsyncQueue<ChangeNotification> {
  /** The filter the server honoured (2026 acknowledgement; legacy echoes the request). */
  readonly acknowledged: Promise<ListenFilter>;
  private ack!: (filter: ListenFilter) => void;

  constructor(private readonly stop: () => Promise<void>) {
    super(() => void stop());
    this.acknowledged = new Promise((resolve) => (this.ack = resolve));
  }

  /** Ends the subscription (also what `break` in a for-await loop does). */
  async close(): Promise<void> {
    this.end();
    await this.stop();
  }

  acknowledge(filter: ListenFilter): void {
    this.ack(filter);
  }
}

export async function listen(
  session: ClientSession,
  filter: ListenFilter,
  signal?: AbortSignal,
): Promise<Subscription> {
  return session.era === 'modern' ? listenModern(session, filter, signal) : listenLegacy(session, filter, signal);
}

function listenModern(session: ClientSession, filter: ListenFilter, signal?: AbortSignal): Subscription {
  const controller = new AbortController();
  signal?.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
  const sub = new Subscription(async () => controller.abort());
  const onNotification = (n: JsonRpcNotification) => {
    if (n.method === 'notifications/subscriptions/acknowledged') {
      sub.acknowledge(((n.params ?? {}).notifications as ListenFilter | undefined) ?? {});
    } else if (n.method === 'notifications/progress' || n.method === 'notifications/message') {
      return; // never part of a listen stream; ignore a server that sends them
    } else sub.push({ method: n.method, params: n.params });
  };
  session
    .exchange(
      'subscriptions/listen',
      { notifications: filter },
      { signal: controller.signal, timeoutMs: 0, onNotification },
    )
    .then(() => sub.end())
    .catch((e: unknown) => (controller.signal.aborted ? sub.end() : sub.end(e)));
  return sub;
}

async function listenLegacy(session: ClientSession, filter: ListenFilter, signal?: AbortSignal): Promise<Subscription> {
  const uris = filter.resourceSubscriptions ?? [];
  for (const uri of uris) await session.exchange('resources/subscribe', { uri });
  const listener = (n: JsonRpcNotification) => {
    if (wanted(filter, n)) sub.push({ method: n.method, params: n.params });
  };
  let stopped = false;
  const sub = new Subscription(async () => {
    if (stopped) return;
    stopped = true;
    session.changeListeners.delete(listener);
    for (const uri of uris) await session.exchange('resources/unsubscribe', { uri }).catch(() => undefined);
  });
  session.changeListeners.add(listener);
  signal?.addEventListener('abort', () => void sub.close(), { once: true });
  // Its resource subscriptions lived on the session: a lost session ends it with SessionLostError.
  const lost = session.sessionSignal;
  const onLost = () => {
    stopped = true;
    session.changeListeners.delete(listener);
    sub.end(lost.reason);
  };
  if (uris.length) lost.addEventListener('abort', onLost, { once: true });
  sub.acknowledge({ ...filter });
  return sub;
}

function wanted(filter: ListenFilter, n: JsonRpcNotification): boolean {
  switch (n.method) {
    case 'notifications/tools/list_changed':
      return !!filter.toolsListChanged;
    case 'notifications/prompts/list_changed':
      return !!filter.promptsListChanged;
    case 'notifications/resources/list_changed':
      return !!filter.resourcesListChanged;
    case 'notifications/resources/updated': {
      const uri = n.params?.uri;
      return (
        typeof uri === 'string' && (filter.resourceSubscriptions ?? []).some((s) => uri === s || uri.startsWith(s))
      );
    }
    default:
      return false;
  }
}
