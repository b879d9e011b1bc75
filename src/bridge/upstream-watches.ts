/**
 * Our callers' resource subscriptions on a mount, forwarded upstream: the first subscriber of a URI
 * opens an upstream subscription (`resources/subscribe` on a legacy upstream, a
 * `subscriptions/listen` stream on a 2026 one), the last release closes it (`resources/unsubscribe`
 * or the stream's end). Its `resources/updated` reach `updated`; after a restart they are reopened.
 */
import type { ContextClient } from '../client/context-client';
import type { Subscription } from '../client/subscription';

interface Watch {
  holders: number;
  subscription?: Promise<Subscription | undefined>;
}

export class UpstreamWatches {
  private readonly watches = new Map<string, Watch>();

  constructor(
    private readonly live: () => ContextClient,
    private readonly updated: (upstreamUri: string) => void,
    private readonly report: (message: string) => void,
  ) {}

  /** One more holder of `uri`; the release is called once per hold. */
  hold(uri: string): () => void {
    let watch = this.watches.get(uri);
    if (!watch) {
      watch = { holders: 0 };
      this.watches.set(uri, watch);
      this.open(uri, watch);
    }
    watch.holders++;
    return () => {
      if (--watch.holders > 0 || this.watches.get(uri) !== watch) return;
      this.watches.delete(uri);
      void watch.subscription?.then((s) => s?.close()).catch(() => undefined);
    };
  }

  /** The upstream is back (a new client): every held URI is subscribed again. */
  reopen(): void {
    for (const [uri, watch] of this.watches) this.open(uri, watch);
  }

  /** URIs subscribed upstream now (held by at least one caller). */
  get uris(): string[] {
    return [...this.watches.keys()];
  }

  close(): void {
    for (const watch of this.watches.values()) void watch.subscription?.then((s) => s?.close()).catch(() => undefined);
    this.watches.clear();
  }

  private open(uri: string, watch: Watch): void {
    let client: ContextClient;
    try {
      client = this.live();
    } catch {
      return; // down: reopened when it is back
    }
    const resources = client.server.capabilities?.resources as { subscribe?: boolean } | undefined;
    if (!resources?.subscribe) return;
    watch.subscription = client.listen({ resourceSubscriptions: [uri] }).then(
      (subscription) => {
        void this.follow(subscription);
        return subscription;
      },
      (e: unknown) => {
        this.report(`subscribing to ${uri} upstream failed: ${e instanceof Error ? e.message : String(e)}`);
        return undefined;
      },
    );
  }

  private async follow(subscription: Subscription): Promise<void> {
    try {
      for await (const n of subscription) {
        if (n.method === 'notifications/resources/updated' && typeof n.params?.uri === 'string') {
          this.updated(n.params.uri);
        }
      }
    } catch {
      // The connection ended: the upstream's restart reopens what is still held.
    }
  }
}
