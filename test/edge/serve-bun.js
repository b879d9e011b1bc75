// Serves the edge example with Bun's own server; prints the port it got.
import worker from '../../build/edge/app.js';

const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (request) => worker.fetch(request) });
console.log(`listening on ${server.port}`);
