/** The arguments a tool mirrors in `Mcp-Param-*` headers, read once per tool definition. */
import type { JsonObject } from '../../protocol/jsonrpc';
import { readHeaderParams, type HeaderParam } from '../../protocol/mcp-header';
import type { ToolDefinition } from '../../registry/definitions';
import type { Registry } from '../../registry/registry';

const NONE: readonly HeaderParam[] = Object.freeze([]);
const paramCache = new WeakMap<ToolDefinition, readonly HeaderParam[]>();

export function toolHeaderParams(registry: Registry, name: string): readonly HeaderParam[] {
  const tool = registry.tool(name);
  if (!tool) return NONE;
  let params = paramCache.get(tool);
  if (!params) paramCache.set(tool, (params = readHeaderParams(tool.inputSchema as JsonObject).params));
  return params;
}
