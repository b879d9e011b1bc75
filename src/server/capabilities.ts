/**
 * What the server declares: everything it serves, so every declared list method works, and
 * `logging` on both eras because `ctx.log` can emit notifications/message on either
 * (2026-07-28 server/utilities/logging: a server that emits them MUST declare it).
 */
import type { ServerCapabilities } from '../protocol/types';

export function serverCapabilities(): { modern: ServerCapabilities; legacy: ServerCapabilities } {
  const modern: ServerCapabilities = {
    tools: { listChanged: true },
    prompts: { listChanged: true },
    resources: { subscribe: true, listChanged: true },
    completions: {},
    logging: {},
  };
  return Object.freeze({ modern, legacy: modern });
}
