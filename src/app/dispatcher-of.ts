/**
 * The dispatcher behind an application, for the framework's own test kit and tests (replay lint,
 * undeclared-form reports, calling a method without a transport). Not public API: the public
 * way in is `app.endpoint`.
 */
import type { ContextServer } from '../server/context-server';
import type { McpApplication } from './application';

const dispatchers = new WeakMap<McpApplication, ContextServer>();

export function keepDispatcher(app: McpApplication, server: ContextServer): void {
  dispatchers.set(app, server);
}

export function dispatcherOf(app: McpApplication): ContextServer {
  const server = dispatchers.get(app);
  if (!server) throw new Error('not an McpApplication built by McpApplication.create');
  return server;
}
