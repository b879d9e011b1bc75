// onemodelcontext over its own Streamable HTTP transport (serveHttp on node:http), from dist/cjs.
// Env: PORT, GUARDS=1 (a guard and an interceptor on echo and confirm_echo), OTEL=1 (OpenTelemetry SDK with
// in-memory exporters), TOOLS (comma list of echo|fixed|form10|confirm_echo), NTOOLS (total incl. echo; extras are
// generated), ENCRYPT=1 (AES-GCM requestState instead of HMAC), SINGLE_USE=1 (singleUseRequestState:
// every token redeemable once, in memory), OAUTH_JWK (an OAuth resource server trusting that key,
// whose JWKS this process serves on PORT + 2000; bench/lib/bench-jwt.mjs signs the token), JWT_CACHE_SECONDS
// (its jwtCacheSeconds), EXTRA (js|hash|hmac|aes: one extra operation per echo call, servers/extra-work.cjs),
// FALLBACK (an ask fallback declared on echo), REDIS_URL (the fleet's shared stores, leases included).
const { resolve } = require('node:path');
const { randomBytes } = require('node:crypto');
const { IsBoolean, IsEmail, IsIn, IsInt, IsNumber, IsOptional, IsString, IsArray, Length, Matches, Max, MaxLength, Min } = require('class-validator');
const { decorateMethod, decorateProperty } = require('./decorate.cjs');
require('./mem-probe.cjs');

// bench.mjs points OMC_DIST at a snapshot of dist/cjs, so a rebuild mid-run cannot break it.
const DIST = process.env.OMC_DIST || resolve(__dirname, '../../dist/cjs');
const omc = require(`${DIST}/index.js`);
// serveHttp is reached through the transport's own index until src/index.ts exports it.
const serveHttp = omc.serveHttp ?? require(`${DIST}/transports/http/index.js`).serveHttp;
const { McpApplication, ContextServerModule, Context, Tool, Field } = omc;

const port = Number(process.env.PORT || 4201);
const tools = new Set((process.env.TOOLS || 'echo').split(','));
const ntools = Number(process.env.NTOOLS || 1);

class EchoArgs {}
decorateProperty(EchoArgs, 'text', String, [IsString(), Field({ description: 'What to echo' })]);

class ExtraArgs {}
decorateProperty(ExtraArgs, 'text', String, [IsString()]);
decorateProperty(ExtraArgs, 'n', Number, [IsOptional(), IsNumber()]);

/** Ten validated fields: what a real "create something" tool takes. */
class SignupArgs {}
decorateProperty(SignupArgs, 'name', String, [IsString(), Length(1, 80)]);
decorateProperty(SignupArgs, 'email', String, [IsEmail()]);
decorateProperty(SignupArgs, 'age', Number, [IsInt(), Min(0), Max(150)]);
decorateProperty(SignupArgs, 'country', String, [IsIn(['DE', 'FR', 'NL', 'US'])]);
decorateProperty(SignupArgs, 'city', String, [IsString()]);
decorateProperty(SignupArgs, 'zip', String, [Matches(/^\d{5}$/)]);
decorateProperty(SignupArgs, 'newsletter', Boolean, [IsBoolean()]);
decorateProperty(SignupArgs, 'score', Number, [IsNumber(), Min(0), Max(100)]);
decorateProperty(SignupArgs, 'tags', Array, [IsArray(), IsString({ each: true })]);
decorateProperty(SignupArgs, 'note', String, [IsOptional(), IsString(), MaxLength(200)]);

/** The conformance server's `test_simple_text`: no arguments, a fixed text (the SDK v2's best case). */
const FIXED_TEXT = 'This is a simple text response for testing.';

class BenchTools {
  echo(args) { return args.text; }
  simpleText() { return FIXED_TEXT; }
  signup(args) { return `${args.name} <${args.email}>`; }
  async confirm_echo(args, ctx) {
    const ok = await ctx.confirm(`Echo "${args.text}"?`, { key: 'confirm' });
    if (!ok) throw new Error('not confirmed');
    return args.text;
  }
}
// GUARDS=1 (bench/guards.mjs): one guard and one interceptor on echo and confirm_echo, what a typical app adds.
class AllowGuard { canActivate(ctx) { return ctx.era !== undefined; } }
class PassInterceptor { async intercept(_ctx, next) { return next(); } }
const pipeline = process.env.GUARDS === '1' ? [omc.UseGuards(AllowGuard), omc.UseInterceptors(PassInterceptor)] : [];
// OTEL=1: an OpenTelemetry tracer and meter provider with in-memory exporters (spans dropped every second).
if (process.env.OTEL === '1') {
  const { context, metrics, trace } = require('@opentelemetry/api');
  const { AsyncLocalStorageContextManager } = require('@opentelemetry/context-async-hooks');
  const { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } = require('@opentelemetry/sdk-trace-base');
  const { InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader, AggregationTemporality } = require('@opentelemetry/sdk-metrics');
  const spans = new InMemorySpanExporter();
  const reader = new PeriodicExportingMetricReader({ exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE), exportIntervalMillis: 60_000 });
  // NodeSDK's default context manager on Node >= 14.8 (the async-hooks one costs ~1.2x more per call here).
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }));
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
  setInterval(() => spans.reset(), 1000).unref();
}
// EXTRA=js|hash|hmac|aes: echo does one extra operation per call (bench/cpu-split.mjs --env; no bench
// row). Swapped in before decoration, so without EXTRA the measured echo is untouched.
const extra = require('./extra-work.cjs').extraWork(process.env.EXTRA);
if (extra) BenchTools.prototype.echo = function (args) { extra(); return args.text; };
// FALLBACK=deny|approvalPage|argument (bench/features.mjs): echo declares it may confirm, with that ask fallback, so
// every call runs through the fallback port (the row "ask fallbacks used"); without it nothing is declared.
const asks = process.env.FALLBACK ? { asks: { kinds: ['confirm'], fallback: process.env.FALLBACK } } : {};
if (tools.has('echo')) decorateMethod(BenchTools, 'echo', [EchoArgs], [Tool({ description: 'Echo text', ...asks }), ...pipeline]);
if (tools.has('fixed')) decorateMethod(BenchTools, 'simpleText', [], [Tool({ name: 'test_simple_text', description: 'Tests simple text content response' })]);
if (tools.has('form10')) decorateMethod(BenchTools, 'signup', [SignupArgs], [Tool({ description: 'Sign up (ten validated fields)' })]);
if (tools.has('confirm_echo')) decorateMethod(BenchTools, 'confirm_echo', [EchoArgs, Context], [Tool({ description: 'Echo after a confirmation round' }), ...pipeline]);

/** NTOOLS - 1 generated tools, tool_001…, on their own class (one method each). */
class GeneratedTools {}
for (let i = 1; i < ntools; i++) {
  const name = `tool_${String(i).padStart(3, '0')}`;
  GeneratedTools.prototype[name] = function (args) { return `${name}:${args.text}`; };
  decorateMethod(GeneratedTools, name, [ExtraArgs], [Tool({ description: `Generated tool ${name}` })]);
}

// Behind a load balancer (bench/fleet.mjs): the fleet's key, its Redis, its Host and readiness route.
const env = omc.readDeploymentEnv(process.env);
const redis = env.redisUrl ? [require(`${DIST}/redis/index.js`).RedisModule.configure({ url: env.redisUrl })] : [];
const oauth = [];
if (process.env.OAUTH_JWK) {
  const jwksPort = port + 2000; // beside the MCP port, so an A/B pair (bench/quick.mjs --base) does not collide
  const jwks = JSON.stringify({ keys: [JSON.parse(process.env.OAUTH_JWK)] });
  require('node:http').createServer((_q, s) => s.writeHead(200, { 'content-type': 'application/json' }).end(jwks)).listen(jwksPort, '127.0.0.1');
  oauth.push(omc.OAuthResourceModule.configure({
    resource: 'http://127.0.0.1/mcp', // bench/lib/bench-jwt.mjs: the token's audience
    authorizationServers: ['https://issuer.bench.invalid'],
    issuer: 'https://issuer.bench.invalid',
    jwksUri: `http://127.0.0.1:${jwksPort}/jwks`,
    ...(process.env.JWT_CACHE_SECONDS ? { jwtCacheSeconds: Number(process.env.JWT_CACHE_SECONDS) } : {}),
  }));
}

const app = McpApplication.create({
  name: 'perf-ours',
  version: '1.0.0',
  providers: ntools > 1 ? [BenchTools, GeneratedTools] : [BenchTools],
  modules: [
    ContextServerModule.configure({
      requestStateKey: env.requestStateKey ?? randomBytes(32), // per process, like the SDK v2 peer's codec key
      encryptRequestState: process.env.ENCRYPT === '1',
      singleUseRequestState: process.env.SINGLE_USE === '1',
      pageSize: 1000, // one page, as the peers answer
      // Default options (issue 34): a full flow store drops completion records first, oldest first, so
      // the default cap (100 000) holds a sustained load. MAX_TRACKED_FLOWS overrides it for an experiment.
      ...(process.env.MAX_TRACKED_FLOWS ? { maxTrackedFlows: Number(process.env.MAX_TRACKED_FLOWS) } : {}),
    }),
    ...redis,
    ...oauth,
  ],
});

// Required (bench/inproc.mjs) rather than run: hand the app over, listen on nothing.
module.exports = { app, omc, DIST };
if (require.main === module) {
  // The idle-sessions measurement opens 2 100 unauthenticated sessions (the default cap is 1 000).
  serveHttp(app, { ...omc.httpOptionsFromEnv(env), port, host: '127.0.0.1', path: '/mcp', maxAnonymousSessions: 5000 }).then(
    (h) => console.log(`ours listening ${h.port} tools=${ntools} set=${[...tools]}`),
    (e) => { console.error(e); process.exit(1); },
  );
}
