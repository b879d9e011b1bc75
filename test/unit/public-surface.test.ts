/** The public surface is one explicit list (DESIGN §3): adding or removing an export is a decision. */
import * as api from '../../src';

test('src/index.ts exports exactly these runtime values', () => {
  expect(Object.keys(api).sort()).toEqual([
    'BOTH_ERAS', 'ClientInfoOptions', 'Complete', 'Context', 'ContextClient', 'ContextClientOptions',
    'ContextServerModule', 'ContextServerOptions', 'CorsOptions', 'Effect', 'ErrorCode', 'Field', 'FrameworkError',
    'HeaderMismatchError', 'HttpOptions', 'HttpStatusError', 'InMemoryEventStore', 'InputRequests', 'InputRequired', 'InvalidParamsError', 'LEGACY_VERSIONS', 'MODERN_VERSION',
    'MaxInputRoundsError', 'McpApplication', 'MemoryClient', 'MemoryFlowStore', 'MethodNotFoundError', 'MissingCapabilityError',
    'MissingInputHandlerError', 'NotFoundError', 'PRINCIPAL', 'Prompt',
    'ProtocolError', 'REQUEST_STATE_OPTIONS', 'RequestStateModule', 'RequestStateOptions', 'RequestTimeoutError', 'Resource', 'ResourceTemplate', 'SERVER_OPTIONS', 'ServerError', 'StateBag',
    'Subscription', 'TestClient', 'Tool', 'UnsupportedVersionError', 'applyElicitationDefaults', 'bothEras', 'callInfo', 'closeSseStream',
    'connectTestClient', 'container', 'createFetchHandler', 'createNodeHandler', 'defineModule', 'forEachEra', 'httpOptionsFromEnv',
    'inject', 'injectable', 'readDeploymentEnv', 'serveHttp', 'serveStdio', 'singleton',
  ]);
});
