/**
 * `@Tool({ ui })` → an MCP App: the tool's `_meta.ui` links a `ui://` resource of type
 * `text/html;profile=mcp-app` whose `_meta.ui` carries the CSP and permissions the host applies.
 * The resource is read by whoever may see the tool: it takes the tool's guards.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { FrameworkError } from '../errors/framework-error';
import type { ResourceOptions, ToolUiOptions } from '../metadata/options';
import {
  APP_MIME_TYPE,
  APP_SCHEME,
  APP_URI_META_KEY,
  type AppResourceMeta,
  type AppToolMeta,
} from '../protocol/apps';
import type { JsonObject } from '../protocol/jsonrpc';
import { withoutUndefined } from './objects';

const VISIBILITY = new Set(['model', 'app']);

/** The app's URI: given, or `ui://<tool name>/app.html`. */
export function appUri(ui: ToolUiOptions, toolName: string): string {
  return ui.uri ?? `${APP_SCHEME}${encodeURIComponent(toolName)}/app.html`;
}

/** The tool's `_meta` with the app linked (`ui` and the flat key older hosts read). */
export function toolMetaWithApp(owner: string, toolName: string, ui: ToolUiOptions, meta?: JsonObject): JsonObject {
  const uri = appUri(ui, toolName);
  if (!uri.startsWith(APP_SCHEME) || uri.length === APP_SCHEME.length) {
    throw invalid(owner, `ui.uri must be a ui:// URI (got ${JSON.stringify(uri)})`);
  }
  if (ui.html !== undefined && ui.file !== undefined) throw invalid(owner, 'give ui.html or ui.file, not both');
  if (ui.visibility !== undefined) {
    const bad = ui.visibility.find((v) => !VISIBILITY.has(v));
    if (ui.visibility.length === 0 || bad !== undefined) {
      throw invalid(owner, `ui.visibility lists who may call the tool: 'model' and/or 'app' (got ${JSON.stringify(ui.visibility)})`);
    }
  }
  const linked: AppToolMeta = { resourceUri: uri, ...(ui.visibility ? { visibility: [...ui.visibility] } : {}) };
  return { ...meta, ui: linked as unknown as JsonObject, [APP_URI_META_KEY]: uri };
}

/**
 * The `ui://` resource a tool publishes, as resource options and a reader (undefined when the tool
 * only links another tool's app).
 */
export function appResource(
  owner: string,
  toolName: string,
  toolDescription: string | undefined,
  ui: ToolUiOptions,
): { options: ResourceOptions; read: () => JsonObject } | undefined {
  if (ui.html === undefined && ui.file === undefined) return undefined;
  const html = ui.html ?? readHtml(owner, ui.file!);
  const uri = appUri(ui, toolName);
  const uiMeta = withoutUndefined({
    csp: ui.csp,
    permissions: ui.permissions,
    domain: ui.domain,
    prefersBorder: ui.prefersBorder,
  }) as AppResourceMeta;
  const _meta = Object.keys(uiMeta).length > 0 ? { ui: uiMeta as unknown as JsonObject } : undefined;
  const contents = Object.freeze({
    contents: [withoutUndefined({ uri, mimeType: APP_MIME_TYPE, text: html, _meta })],
  });
  const options = withoutUndefined({
    uri,
    name: `${toolName}-app`,
    title: ui.title,
    description: ui.description ?? toolDescription,
    mimeType: APP_MIME_TYPE,
    _meta,
  });
  return { options, read: () => contents };
}

function readHtml(owner: string, file: string): string {
  try {
    return readFileSync(resolve(file), 'utf8');
  } catch (e) {
    throw invalid(owner, `ui.file ${file} cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
}

function invalid(owner: string, problem: string): FrameworkError {
  return new FrameworkError('OMC_INVALID_DEFINITION', `${owner}: @Tool ${problem}.`);
}
