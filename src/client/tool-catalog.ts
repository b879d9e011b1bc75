/**
 * The tools a client has seen, with the `x-mcp-header` parameters each one mirrors into headers.
 * A tool whose declarations break the rules is refused (dropped with a warning), as SEP-2243 asks.
 */
import { FrameworkError } from '../errors/framework-error';
import { readHeaderParams, type HeaderParam } from '../protocol/mcp-header';
import type { JsonObject } from '../protocol/jsonrpc';
import type { Tool } from '../protocol/listings';

export class ToolCatalog {
  private readonly headerParams = new Map<string, readonly HeaderParam[]>();
  private readonly refused = new Map<string, string>();

  constructor(private readonly warn: (message: string) => void) {}

  /** Keeps the valid tools of a page and remembers their header parameters. */
  admit(tools: Tool[]): Tool[] {
    return tools.filter((tool) => {
      const schema = isObject(tool.inputSchema) ? tool.inputSchema : {};
      const { params, problems } = readHeaderParams(schema);
      if (problems.length) {
        const why = problems.map((p) => `property "${p.property}": ${p.reason}`).join('; ');
        this.refused.set(tool.name, why);
        this.headerParams.delete(tool.name);
        this.warn(`Refusing tool "${tool.name}": invalid x-mcp-header declaration (${why}).`);
        return false;
      }
      this.refused.delete(tool.name);
      this.headerParams.set(tool.name, params);
      return true;
    });
  }

  knows(name: string): boolean {
    return this.headerParams.has(name) || this.refused.has(name);
  }

  /** Header parameters of a tool; throws for a refused tool. */
  paramsFor(name: string): readonly HeaderParam[] {
    const refused = this.refused.get(name);
    if (refused)
      throw new FrameworkError(
        'OMC_CLIENT_TOOL_REFUSED',
        `Tool "${name}" was refused: invalid x-mcp-header declaration (${refused}).`,
      );
    return this.headerParams.get(name) ?? [];
  }
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
