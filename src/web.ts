/**
 * `onemodelcontext/web`: what a server on a web-standard runtime needs (Cloudflare Workers, Deno,
 * Bun, any `fetch` handler), and nothing that needs Node's `http`, `net` or `child_process`: no
 * stdio, no `serveHttp`, no client and no test kit. Its import graph uses `node:crypto`,
 * `node:async_hooks` and `node:util`, and imports `node:fs` and `node:path` for what reads files
 * at bootstrap (`@Skills` folders, an App's `ui.file`), which runs only when an app declares them
 * (Workers: the `nodejs_compat` flag). See docs/transports.md.
 */

// Decorators and schema helpers
export { Tool } from './decorators/tool';
export { Prompt } from './decorators/prompt';
export { Resource, ResourceTemplate } from './decorators/resource';
export { Complete } from './decorators/complete';
export { Effect } from './decorators/effect';
export {
  UseGuards,
  UseInterceptors,
  UseFilters,
  type GuardRef,
  type InterceptorRef,
  type FilterRef,
} from './decorators/use-pipeline';
export { Field, type FieldOptions } from './schema';
export type { FieldTypeThunk } from './schema/field-metadata';
export type {
  ToolOptions,
  PromptOptions,
  ResourceOptions,
  ResourceTemplateOptions,
  CompletionTarget,
  CacheHints,
  SchemaSource,
  TaskSupport,
} from './metadata/options';

// Application and configuration
export { McpApplication, type ApplicationOptions, type FunctionHandler } from './app/application';
export type { Provider, ProviderObject } from './app/providers';
export { httpOptionsFromEnv, readDeploymentEnv, type DeploymentEnv } from './transports/http/deployment-env';
export { defineModule, type ConfigModule } from './config/modules';
export { ContextServerModule, SERVER_OPTIONS } from './server/core/server-module';
export {
  ContextServerOptions,
  type ContextServerInit,
  type Authenticate,
  type AuthRequest,
} from './server/core/server-options';
export { RequestStateModule, REQUEST_STATE_OPTIONS } from './state/request-state-module';
export { RequestStateOptions } from './state/request-state-options';
export type { ServerLogger, PinoLikeLogger } from './server/core/server-logger';
export type { TelemetryOptions } from './telemetry/telemetry-options';
export type { ReplayLintMode } from './server/replay/replay-lint';
export type { CacheHintOptions } from './config/cache-hint-options';
export type { RequestStateKeyInput, SingleUseStore } from './state';

// Context and asks
export { Context, type ClientFeature } from './context/context';
export type { ElicitOutcome, UrlElicitOutcome, SampleRequest, AskOptions } from './context/ask-builders';
export type { Principal } from './context/principal';
export { StateBag } from './context/state-bag';
export { InputRequired, InputRequests, type InputRequiredInit } from './context/input-required-result';
export type { Ask, AskDecoding, AskKind as InputKind } from './context/asks';
export { PRINCIPAL } from './server/core/invoker';

// Guards, interceptors and filters
export { isInputRequired } from './server/pipeline/signals';
export {
  RateLimit,
  RATE_LIMITED,
  Timeout,
  ResultSizeLimit,
  Timing,
  type RateLimitOptions,
  type RateLimitGuardClass,
  type TimingEntry,
  type TimingSink,
} from './guards';
export { TOKEN_BUCKETS } from './server/fleet/shared-stores';
export { MemoryTokenBucket } from './state/memory-token-bucket';
export type { TokenBucketStore, TokenBucketRule, TokenBucketResult } from './state/token-bucket';
export type {
  CanActivate,
  Interceptor,
  InterceptorRuns,
  CallNext,
  ExceptionFilter,
  ExecutionContext,
  ExecutionPhase,
  FlowInfo,
  HandlerKind,
} from './server/pipeline/types';
export { StoreUnavailableError } from './state/store-unavailable';
export { SHARED_STORES, type SharedStores } from './server/fleet/shared-stores';

// OAuth protected resource (issue 17)
export { OAuthResourceModule, OAUTH_RESOURCE_OPTIONS, type OAuthResourceInit } from './auth/oauth-module';
export { OAuthResourceOptions, IntrospectionOptions, DEFAULT_TOKEN_ALGORITHMS } from './auth/oauth-options';
export { InvalidTokenError, type TokenVerifier, type VerifiedToken } from './auth/token-verifier';
export { oauthPrincipal, grantedScopes, type OAuthPrincipal } from './auth/oauth-principal';
export { RequireScopes, ScopesGuard } from './auth/require-scopes';
export { MissingScopesError, INSUFFICIENT_SCOPE_CODE } from './errors/insufficient-scope';
export {
  RESOURCE_SERVER,
  type ResourceServer,
  type BearerChallenge,
  type TokenOutcome,
  type TokenRefusal,
} from './server/core/resource-server';
export type { NotificationBus, NotificationBusEvent, NotificationBusListener } from './server/fleet/notification-bus';
export type { ListKind, RegistryEvent } from './registry/registry';
export { MemoryFlowStore } from './state/memory-flow-store';
export type { FlowStore, FlowClaim, OnceRecord } from './state/flow-store';
export { MemoryTaskStore } from './state/memory-task-store';
export type { StoredTask, TaskStore } from './state/task-store';
export { TASKS_EXTENSION } from './protocol/extensions';
export type { Lease, LeaseCounter } from './state/lease-counter';

// Transport: the web-standard fetch handler
export { createFetchHandler, type FetchHandler } from './adapters/fetch';
export { HttpOptions, CorsOptions } from './transports/http/http-options';
export { InMemoryEventStore, type EventStore, type StoredEvent } from './transports/http/event-store';
export type { HttpEndpointHandle } from './transports/http/node-handler';

// Dependency injection (re-exported so apps need one import)
export { injectable, inject, singleton, container } from 'tsyringe';

// Errors and protocol
export { ProtocolError } from './errors/protocol-error';
export { NotFoundError, InvalidParamsError } from './errors/request-errors';
export { FrameworkError, type FrameworkErrorCode } from './errors/framework-error';
export { ErrorCode } from './protocol/error-codes';
export { MODERN_VERSION, LEGACY_VERSIONS } from './protocol/versions';
// The list entries are named …Info here: Tool, Prompt, Resource and ResourceTemplate are the decorators.
export type {
  Tool as ToolInfo,
  PromptArgument,
  Prompt as PromptInfo,
  Resource as ResourceInfo,
  ResourceTemplate as ResourceTemplateInfo,
} from './protocol/listings';
export type { CompletionReference, CompleteRequest, CompleteResult } from './protocol/completion';
export type { ListenFilter, ChangeNotification } from './protocol/listen';

export type {
  JsonObject,
  RequestId,
  JsonRpcRequest,
  JsonRpcNotification,
  JsonRpcSuccess,
  JsonRpcFailure,
} from './protocol/jsonrpc';
export type { JsonRpcErrorObject, JsonRpcResponse, JsonRpcMessage } from './protocol/jsonrpc';
export type { Era, LegacyVersion, ModernVersion, ProtocolVersion } from './protocol/versions';
export type { LogLevel } from './protocol/meta';
export type {
  Implementation,
  Icon,
  ClientCapabilities,
  ServerCapabilities,
  Annotations,
  TextContent,
  ImageContent,
  AudioContent,
  TextResourceContents,
  BlobResourceContents,
  ResourceContents,
  EmbeddedResource,
  ResourceLink,
  ContentBlock,
  CallToolResult,
  PromptMessage,
  GetPromptResult,
  ReadResourceResult,
  ToolAnnotations,
  SamplingContent,
  SamplingMessage,
  ModelPreferences,
  CreateMessageParams,
  CreateMessageResult,
  Root,
  ElicitAction,
  ElicitResult,
  InputRequest,
} from './protocol/types';

// Custom transports: the narrow endpoint serveHttp, serveStdio and the adapters use (app.endpoint)
export type { EndpointHost, ServerEndpoint, EndpointSettings, Reply, ListenStream } from './server/server-endpoint';
export type { RequestIO } from './server/request/request-io';
export type { LegacySession } from './server/legacy/legacy-session';
export type { RequestScope } from './server/request/request-scope';
export type { ClientRequester } from './context/legacy-port';
export type { HeaderParam, HeaderParamType } from './protocol/mcp-header';
