// Serves the edge example with Deno's own server; prints the port it got.
import worker from '../../build/edge/app.js';

Deno.serve(
  { hostname: '127.0.0.1', port: 0, onListen: ({ port }) => console.log(`listening on ${port}`) },
  (request) => worker.fetch(request),
);
