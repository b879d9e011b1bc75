/**
 * A server from the built dist in its own process, for measuring what a store really holds (RSS)
 * while a test floods it over HTTP: `node --expose-gc budget-server.js '<json>'` with
 * `{ server: ContextServerOptions, http: HttpOptions, resultChars }`; prints `{"url": …}` once
 * listening. The caller is `X-User` (none: anonymous). Tools: `echo`, `rss` (the process's RSS
 * and heap after full collections), `report` (a task tool answering `resultChars` characters), `keep`
 * (asks the client whether to keep its text: the ask carries it); resources `doc://{id}`.
 */
const { resolve } = require('node:path');
const { ContextServerModule, McpApplication, serveHttp } = require(resolve(__dirname, '../../dist/cjs/index.js'));

const config = JSON.parse(process.argv[2] || '{}');
const text = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };
const quiet = { warn() {}, error() {} };

const app = McpApplication.create({
  name: 'budgets',
  version: '1.0.0',
  providers: [],
  modules: [
    ContextServerModule.configure({
      logger: quiet,
      authenticate: ({ headers }) => (typeof headers?.['x-user'] === 'string' ? { id: headers['x-user'] } : undefined),
      ...config.server,
    }),
  ],
});
app.addTool({ name: 'echo', description: 'echo', input: text, handler: (a) => a.text });
app.addTool({
  name: 'rss',
  description: 'RSS after full collections',
  handler: async () => {
    for (let i = 0; i < 4; i++) {
      global.gc();
      await new Promise((r) => setTimeout(r, 20));
    }
    const { rss, heapUsed } = process.memoryUsage();
    return JSON.stringify({ rss, heapUsed });
  },
});
app.addTool({
  name: 'report',
  description: 'a task tool with a large result',
  task: 'optional',
  input: text,
  handler: async (a) => {
    // Well past taskAfterMs 0 (a 1 ms timer): with 5 ms, a pause of a few ms between arming this timer and
    // the escalation's let the call finish first on a loaded machine, and it came back `complete`.
    await new Promise((r) => setTimeout(r, 50));
    return `${a.text.length}:${'r'.repeat(config.resultChars ?? 10)}`;
  },
});
app.addTool({
  name: 'keep',
  description: 'asks the client whether to keep the text',
  input: text,
  handler: async (a, ctx) => ((await ctx.confirm(`Keep ${a.text}?`)) ? 'kept' : 'dropped'),
});
app.addResourceTemplate({ uriTemplate: 'doc://{id}', name: 'doc', handler: (vars) => `doc ${vars.id}` });

serveHttp(app, { port: 0, host: '127.0.0.1', ...config.http }).then(
  (handle) => console.log(JSON.stringify({ url: handle.url })),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
