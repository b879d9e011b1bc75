/** Framework adapters for the Streamable HTTP endpoint. */
export { mcpExpress, type McpExpressMiddleware } from './express';
export { mcpFastify, type McpFastifyPlugin } from './fastify';
export { createFetchHandler, type FetchHandler } from './fetch';
