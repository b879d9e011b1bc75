/**
 * The dispatcher behind an application, for the framework's own test kit and tests (replay lint,
 * undeclared-form reports, calling a method without a transport). Not public API: the public
 * way in is `app.endpoint`. Keyed by any object (an application), so this file needs nothing of
 * application.ts, which imports it.
 */
import type { ContextServer } from '../server/context-server';

const dispatchers = new WeakMap<object, ContextServer>();

export function keepDispatcher(app: object, server: ContextServer): void {
  dispatchers.set(app, server);
}

export function dispatcherOf(app: object): ContextServer {
  const server = dispatchers.get(app);
  if (!server) throw new Error('not an McpApplication built by McpApplication.create');
  return server;
}
