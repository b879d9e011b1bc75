/** Start-up check: a tool whose `_meta.ui` links an app names a `ui://` resource some tool publishes. */
import { FrameworkError } from '../errors/framework-error';
import type { JsonObject } from '../protocol/jsonrpc';
import type { ToolDefinition } from '../registry/definitions';
import type { Registry } from '../registry/registry';

export function assertAppsLinked(registry: Registry): void {
  for (const tool of registry.listTools()) assertAppLinked(registry, tool);
}

export function assertAppLinked(registry: Registry, tool: ToolDefinition): void {
  const ui = (tool.descriptor._meta as JsonObject | undefined)?.ui as { resourceUri?: unknown } | undefined;
  if (typeof ui?.resourceUri !== 'string' || registry.resource(ui.resourceUri)) return;
  throw new FrameworkError(
    'OMC_INVALID_DEFINITION',
    `${tool.owner}: @Tool ui links ${ui.resourceUri}, which no tool publishes (give ui.html or ui.file on one of them).`,
  );
}
