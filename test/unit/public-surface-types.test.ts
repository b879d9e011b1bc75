/**
 * The exported types, pinned like the runtime names (issue 12): adding, renaming or removing one is
 * a decision. Read with the TypeScript compiler, which also walks every exported value and type
 * (members, parameters, results, type arguments) for types of ours that index.ts does not export.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as api from '../../src';
import { readSurface, type Surface } from '../helpers/public-surface';

let surface: Surface;
beforeAll(() => {
  surface = readSurface();
}, 60_000);

test('src/index.ts names every export (no export *, no export type *)', () => {
  const index = readFileSync(join(__dirname, '..', '..', 'src', 'index.ts'), 'utf8');
  expect(index).not.toMatch(/export\s+(type\s+)?\*/);
});

test('the compiler sees the same runtime values as the runtime', () => {
  expect(surface.values).toEqual(Object.keys(api).sort());
});

test('src/index.ts exports exactly these types', () => {
  expect(surface.types).toEqual([
    'Annotations', 'Answer', 'AppTarget', 'ApplicationOptions', 'Ask', 'AskDecoding', 'AskKind', 'AskOptions',
    'AudioContent', 'AuthRequest', 'Authenticate', 'Awaitable', 'BlobResourceContents', 'CacheHintOptions', 'CacheHints',
    'CallInfo', 'CallOptions', 'CallToolResult', 'ChangeNotification', 'ClientCapabilities', 'ClientFeature',
    'ClientProtocolVersion', 'ClientRequester', 'ClientTarget', 'ClientTransport', 'CompleteRequest', 'CompleteResult',
    'CompletionReference', 'CompletionTarget', 'ConfigModule', 'ContentBlock', 'ContextClientInit', 'ContextServerInit',
    'CreateMessageParams', 'CreateMessageResult', 'DeploymentEnv', 'ElicitAction', 'ElicitFormParams', 'ElicitOutcome',
    'ElicitResult', 'ElicitUrlParams', 'ElicitationContent', 'ElicitationHandler', 'EmbeddedResource', 'EndpointHost',
    'EndpointSettings', 'Era', 'EventStore', 'FetchHandler', 'FieldOptions', 'FieldTypeThunk', 'FlowClaim', 'FlowStore',
    'FrameworkErrorCode', 'FunctionHandler', 'GetPromptResult', 'HeaderParam', 'HeaderParamType', 'HttpEndpointHandle',
    'HttpServerHandle', 'HttpTarget', 'Icon', 'ImageContent', 'Implementation', 'InboundSink', 'InputContext',
    'InputKind', 'InputRequest', 'InputRequiredInit', 'JsonObject', 'JsonRpcErrorObject', 'JsonRpcFailure',
    'JsonRpcMessage', 'JsonRpcNotification', 'JsonRpcRequest', 'JsonRpcResponse', 'JsonRpcSuccess', 'LegacySession',
    'LegacyVersion', 'ListKind', 'ListenFilter', 'ListenStream', 'LogLevel', 'LogMessage', 'MemoryClientOptions',
    'ModelPreferences', 'ModernVersion', 'NodeHandler', 'NotificationBus', 'NotificationBusEvent',
    'NotificationBusListener', 'OnceRecord', 'Page', 'Principal', 'ProgressCallback', 'ProgressUpdate', 'PromptArgument',
    'PromptInfo', 'PromptMessage', 'PromptOptions', 'ProtocolVersion', 'Provider', 'ProviderObject',
    'ReadResourceResult', 'RecordedAsk', 'RegistryEvent', 'ReplayLintMode', 'Reply', 'RequestIO', 'RequestId',
    'RequestOptions', 'RequestScope', 'RequestStateKeyInput', 'ResourceContents', 'ResourceInfo', 'ResourceLink',
    'ResourceOptions', 'ResourceTemplateInfo', 'ResourceTemplateOptions', 'Root', 'RootsHandler', 'Run', 'SampleRequest',
    'SamplingContent', 'SamplingHandler', 'SamplingMessage', 'SchemaSource', 'ScriptedAnswers', 'ServerCapabilities',
    'ServerDescription', 'ServerEndpoint', 'ServerLogger', 'ServerRequestHandler', 'SharedStores', 'SingleUseStore',
    'StdioHandle', 'StdioOptions', 'StdioTarget', 'StoredEvent', 'TestClientOptions', 'TestEra', 'TextContent',
    'TextResourceContents', 'ToolAnnotations', 'ToolInfo', 'ToolOptions', 'TransportReply', 'TransportRequestOptions',
    'TransportTarget', 'UrlElicitOutcome', 'UrlElicitationHandler',
  ]);
});

test('nothing public hands out a type of ours that index.ts does not export', () => {
  expect(surface.leaks).toEqual([]);
});

test.each(['express', 'fastify', 'fetch'])('the %s subpath hands out only types it or the main entry exports', (name) => {
  expect(readSurface(join(__dirname, '..', '..', 'src', 'adapters', `${name}.ts`)).leaks).toEqual([]);
}, 60_000);
