/** What the server declares: everything it serves, so every declared list method works. */
import type { ServerCapabilities } from '../protocol/types';

export function serverCapabilities(): { modern: ServerCapabilities; legacy: ServerCapabilities } {
  const modern: ServerCapabilities = {
    tools: { listChanged: true },
    prompts: { listChanged: true },
    resources: { subscribe: true, listChanged: true },
    completions: {},
  };
  return Object.freeze({ modern, legacy: { ...modern, logging: {} } });
}
