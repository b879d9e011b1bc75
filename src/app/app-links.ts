/** Start-up check: a tool whose `_meta.ui` links an app names a `ui://` resource some tool publishes. */
import { FrameworkError } from '../errors/framework-error';
import type { ToolDefinition } from '../registry/definitions';
import type { Registry } from '../registry/registry';

export function assertAppsLinked(registry: Registry): void {
  for (const tool of registry.listTools()) assertAppLinked(registry, tool);
}

export function assertAppLinked(registry: Registry, tool: ToolDefinition): void {
  const uri = tool.linkedApp;
  if (uri === undefined || registry.resource(uri)) return;
  throw new FrameworkError(
    'OMC_INVALID_DEFINITION',
    `${tool.owner}: @Tool ui links ${uri}, which no tool publishes (give ui.html or ui.file on one of them).`,
  );
}
