/**
 * MCP Apps (SEP-1865, `@modelcontextprotocol/ext-apps`): a tool links an HTML app served as a
 * `ui://` resource; the host renders it in a sandboxed frame and lets it call the server's tools.
 * The wire shapes here are checked against the official package's types and schemas in the tests.
 */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';
export const APP_SCHEME = 'ui://';
/** The flat key older hosts read the app's URI from (the package still writes and reads it). */
export const APP_URI_META_KEY = 'ui/resourceUri';

/** Who may call a tool that has an app: the model, the app, or both (the default). */
export type AppToolVisibility = 'model' | 'app';

/** Origins the app may reach, mapped by the host onto its Content-Security-Policy. Empty: none. */
export interface AppCsp {
  connectDomains?: string[];
  resourceDomains?: string[];
  frameDomains?: string[];
  baseUriDomains?: string[];
}

/** Browser features the app asks for (the host may grant them through the frame's `allow`). */
export interface AppPermissions {
  camera?: Record<string, never>;
  microphone?: Record<string, never>;
  geolocation?: Record<string, never>;
  clipboardWrite?: Record<string, never>;
}

/** `_meta.ui` of the `ui://` resource and of its contents. */
export interface AppResourceMeta {
  csp?: AppCsp;
  permissions?: AppPermissions;
  domain?: string;
  prefersBorder?: boolean;
}

/** `_meta.ui` of a tool. */
export interface AppToolMeta {
  resourceUri: string;
  visibility?: AppToolVisibility[];
}
