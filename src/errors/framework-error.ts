/** A local error for the developer: thrown at start-up or by misuse; never sent as-is. */
export class FrameworkError extends Error {
  override readonly name = 'FrameworkError';
  constructor(
    readonly code: FrameworkErrorCode,
    /** The message without the code prefix: what a model or end user may read. */
    readonly detail: string,
  ) {
    super(`[${code}] ${detail}`);
  }
}

/** Every framework error code; docs/errors.md lists each one (a test checks). */
export type FrameworkErrorCode =
  | 'OMC_REFLECT_METADATA_MISSING'
  | 'OMC_DECORATOR_METADATA_MISSING'
  | 'OMC_INVALID_NAME'
  | 'OMC_DUPLICATE_NAME'
  | 'OMC_INVALID_DEFINITION'
  | 'OMC_UNSUPPORTED_PARAMETER'
  | 'OMC_NOT_INJECTABLE'
  | 'OMC_UNRESOLVABLE_DEPENDENCY'
  | 'OMC_SCHEMA_UNSUPPORTED'
  | 'OMC_FORM_UNSUPPORTED'
  | 'OMC_FORM_UNDECLARED'
  | 'OMC_INVALID_OPTIONS'
  | 'OMC_INVALID_URI_TEMPLATE'
  | 'OMC_INVALID_MCP_HEADER'
  | 'OMC_ASK_UNAVAILABLE'
  | 'OMC_ASK_INVALID_ANSWER'
  | 'OMC_ASK_TIMEOUT'
  | 'OMC_ASK_LIMIT'
  | 'OMC_STATE_TOO_LARGE'
  | 'OMC_INPUT_REQUIRED_EMPTY'
  | 'OMC_TRANSPORT'
  | 'OMC_CLIENT_MAX_ROUNDS'
  | 'OMC_CLIENT_NO_HANDLER'
  | 'OMC_CLIENT_BAD_REPLY'
  | 'OMC_CLIENT_UNSUPPORTED_VERSION'
  | 'OMC_CLIENT_TIMEOUT'
  | 'OMC_CLIENT_CLOSED'
  | 'OMC_CLIENT_TOOL_REFUSED';
