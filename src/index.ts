/** The public surface of onemodelcontext. A test pins this list. */

// Decorators and schema helpers
export { Tool } from './decorators/tool';
export { Prompt } from './decorators/prompt';
export { Resource, ResourceTemplate } from './decorators/resource';
export { Complete } from './decorators/complete';
export { Skills } from './decorators/skills';
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
  AskDeclaration,
  AskDeclaredKind,
  DeclaredFallback,
  SkillsOptions,
  ToolUiOptions,
} from './metadata/options';
export type { AppCsp, AppPermissions, AppToolVisibility } from './protocol/apps';

// Application and configuration
export { McpApplication, type ApplicationOptions, type ChangeHandler, type FunctionHandler } from './app/application';
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
export { namespacedPrincipalId, type Principal } from './context/principal';
export { StateBag } from './context/state-bag';
export { InputRequired, InputRequests, type InputRequiredInit } from './context/input-required-result';
export type { Ask, AskDecoding, AskKind as InputKind } from './context/asks';
export type {
  AskFallbackOptions,
  AskFallback,
  NotShownNote,
  NotShownReason,
} from './context/ask-fallback';
export type { ApprovalPages, PageRequest, PageResponse } from './context/approval-pages';
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
export type {
  FleetChangeEvent,
  NotificationBus,
  NotificationBusEvent,
  NotificationBusListener,
} from './server/fleet/notification-bus';
export type { ListKind, RegistryEvent } from './registry/registry';
export { MemoryFlowStore } from './state/memory-flow-store';
export type { FlowStore, FlowClaim, OnceRecord } from './state/flow-store';
export { FlowTakenOverError } from './state/flow-store';
export { MemoryTaskStore } from './state/memory-task-store';
export type { StoredTask, TaskStore } from './state/task-store';
export type {
  ApprovalFlowLimits,
  ApprovalFlowRecord,
  ApprovalStore,
  NewApprovalFlow,
  StoredPage,
} from './state/approval-store';
export { TASKS_EXTENSION } from './protocol/extensions';
export {
  SKILLS_EXTENSION,
  type Skill,
  type SkillFrontmatter,
  type SkillResource,
} from './protocol/skills';
export type { Lease, LeaseCounter } from './state/lease-counter';

// Transports
export { serveStdio, type StdioOptions, type StdioHandle } from './transports/stdio';
// Express and Fastify adapters live on their own subpaths (onemodelcontext/express, …/fastify) so
// this entry's types import neither framework; the fetch handler needs none and is here too.
export { createFetchHandler, type FetchHandler } from './adapters/fetch';
export {
  serveHttp,
  createNodeHandler,
  HttpOptions,
  CorsOptions,
  InMemoryEventStore,
  closeSseStream,
} from './transports/http';
export type { HttpServerHandle, NodeHandler, HttpEndpointHandle, EventStore, StoredEvent } from './transports/http';

// Dependency injection (re-exported so apps need one import)
export { injectable, inject, singleton, container } from 'tsyringe';

// Testing
export { MemoryClient, type MemoryClientOptions, type ServerRequestHandler } from './testing/memory-client';
export { TestClient, connectTestClient, type TestClientOptions, type TestEra, type Run } from './testing/test-client';
export { forEachEra, bothEras, BOTH_ERAS } from './testing/eras';
export type { ScriptedAnswers, Answer, AskKind, RecordedAsk } from './testing/scripted-answers';

// Client
export {
  ContextClient,
  type ClientTarget,
  type AppTarget,
  type TransportTarget,
  type CallOptions,
  type RequestOptions,
  type RoundOptions,
} from './client/context-client';
export type { TaskStatusView } from './client/task-follower';
export type { SkillsClient, LoadedSkill, LoadOptions, SkillsPeer } from './client/skills';
export {
  ContextClientOptions,
  ClientInfoOptions,
  type ContextClientInit,
  type ClientProtocolVersion,
  type InputContext,
  type ElicitFormParams,
  type ElicitUrlParams,
  type ElicitationHandler,
  type UrlElicitationHandler,
  type SamplingHandler,
  type RootsHandler,
  type Awaitable,
  type ProgressCallback,
  type ProgressUpdate,
  type LogMessage,
} from './client/options';
export { callInfo, type CallInfo } from './client/call-info';
export {
  MaxInputRoundsError,
  MissingInputHandlerError,
  HttpStatusError,
  RequestTimeoutError,
  SessionLostError,
} from './client/errors';
export {
  ServerError,
  MethodNotFoundError,
  HeaderMismatchError,
  MissingCapabilityError,
  UnsupportedVersionError,
} from './client/server-errors';
export { Subscription } from './client/subscription';
export { applyElicitationDefaults, type ElicitationContent } from './client/elicitation-defaults';
export type { HttpTarget, StdioTarget } from './client/targets';
export type { InputHandlers } from './client/input-handlers';

// Bridge: mount servers you don't own (docs/bridge.md)
export { mountServer, Mount, type MountedList } from './bridge/mount';
export { MountOptions, type MountInit } from './bridge/mount-options';
export { BridgeModule, BRIDGE_OPTIONS, type BridgeModuleOptions } from './bridge/bridge-module';
export type { BridgeRefusal } from './bridge/bridge-errors';

// Client sign-in (OAuth 2.1)
export { OAuthOptions, type OAuthInit } from './client/auth/auth-options';
export {
  followRedirect,
  loopbackRedirect,
  type RedirectHandler,
  type FollowRedirectOptions,
  type LoopbackRedirectOptions,
} from './client/auth/redirect-handlers';
export { idJagAssertion, type IdJagOptions, type AssertionTarget } from './client/auth/id-jag';
export {
  MemoryTokenStore,
  type TokenStore,
  type StoredAuth,
  type StoredTokens,
  type ClientRegistration,
  type TokenEndpointAuthMethod,
} from './client/auth/token-store';
export {
  AuthDiscoveryError,
  AuthorizationResponseError,
  TokenEndpointError,
  InsufficientScopeError,
  AuthenticationFailedError,
} from './client/auth/auth-errors';
export type { ClientTransport, InboundSink, TransportReply, TransportRequestOptions } from './client/transport';
export type { Page } from './client/page';
export type { ServerDescription } from './client/server-description';

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
export { PendingAskBudget } from './server/legacy/pending-asks';
export type { PendingAskLimits, SessionAsks } from './server/legacy/pending-asks';
export type { RequestScope } from './server/request/request-scope';
export type { ClientRequester } from './context/legacy-port';
export type { HeaderParam, HeaderParamType } from './protocol/mcp-header';
