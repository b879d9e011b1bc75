/**
 * What the server declares: everything it serves, so every declared list method works, and
 * `logging` on both eras because `ctx.log` can emit notifications/message on either
 * (2026-07-28 server/utilities/logging: a server that emits them MUST declare it). `extensions`
 * lists the extensions whose wire the era has (tasks: 2026-07-28 only; skills: both, when published).
 */
import { serverExtensions } from '../../protocol/extensions';
import { SKILLS_EXTENSION } from '../../protocol/skills';
import type { ServerCapabilities } from '../../protocol/types';

/** `skills`: whether the app publishes skills (SEP-2640, both eras, with `resources/directory/read`). */
export function serverCapabilities(
  published: { skills?: boolean } = {},
): { modern: ServerCapabilities; legacy: ServerCapabilities } {
  const base: ServerCapabilities = {
    tools: { listChanged: true },
    prompts: { listChanged: true },
    resources: { subscribe: true, listChanged: true },
    completions: {},
    logging: {},
  };
  const withExtensions = (era: 'modern' | 'legacy'): ServerCapabilities => {
    const declared = serverExtensions(era);
    const extensions = published.skills ? { ...declared, [SKILLS_EXTENSION]: { directoryRead: true } } : declared;
    return extensions ? { ...base, extensions } : base;
  };
  return Object.freeze({ modern: withExtensions('modern'), legacy: withExtensions('legacy') });
}
