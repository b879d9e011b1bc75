/** Streamable HTTP transport (both eras on one endpoint). */
export { serveHttp, type HttpServerHandle } from './serve-http';
export { createNodeHandler, type NodeHandler, type HttpEndpointHandle } from './node-handler';
export { HttpOptions, CorsOptions, validateHttpOptions } from './http-options';
export { InMemoryEventStore, type EventStore, type StoredEvent } from './event-store';
export { closeSseStream } from './sse-polling';
export { HttpEndpoint } from './http-endpoint';
export type { HttpRequestView, ResponseSink, StreamSink, BodySource, BodyRead, HeaderBag } from './http-exchange';
