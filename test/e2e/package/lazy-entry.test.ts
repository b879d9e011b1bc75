/**
 * The built CommonJS root index loads the client, the test kit, the OAuth resource layer, the built-in
 * guards, each transport and the fetch adapter on the first read of one of their names (a server on
 * HTTP never pays for the client, a stdio server never for HTTP), and every exported name still reads
 * as a value. class-transformer's index (its whole transformer) loads only when something past `@Type`
 * is read, and then it is the app's own copy. The HTTP transport is a bundle of its own
 * (dist/cjs/bundle-http.js): a stdio server never even parses it.
 * What a server runs only on first use (the build's LAZY_MODULES) is in dist/cjs/bundle-cold.js, loaded
 * on the first read of one of their names; what it runs from its first request past initialize on
 * (REQUEST_MODULES) in dist/cjs/bundle-request.js. A stdio server loads neither, nor node:crypto, to
 * answer initialize.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');

test('require("onemodelcontext") defers the cold layers; every name still resolves', () => {
  if (!existsSync(join(root, 'dist/cjs/index.js')))
    throw new Error('dist/ is missing: run `npm run build` (npm test does).');
  const script = `
    require('reflect-metadata');
    const marks = { 'transports/http': '/dist/cjs/bundle-http.js' };
    const loaded = (dir) => Object.keys(require.cache).some((f) => f.includes(marks[dir] ?? '/dist/cjs/' + dir + '/'));
    const cold = ['client', 'testing', 'auth', 'guards', 'transports/http'];
    const omc = require('onemodelcontext');
    const before = cold.filter(loaded);
    const stdio = [omc.McpApplication, omc.Tool, omc.serveStdio].every((f) => typeof f === 'function');
    const afterStdio = cold.filter(loaded);
    const transformer = () => Object.keys(require.cache).some((f) => f.endsWith('/class-transformer/cjs/index.js'));
    const transformerAtStdio = transformer();
    const server = typeof omc.serveHttp === 'function';
    const afterServer = cold.filter(loaded);
    const client = typeof omc.ContextClient;
    const undefinedNames = Object.keys(omc).filter((k) => k !== '__esModule' && omc[k] === undefined);
    const after = cold.filter(loaded);
    console.log(JSON.stringify({
      before, stdio, afterStdio, transformerAtStdio, server, afterServer, client, after, undefinedNames,
    }));`;
  const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: root }).toString());
  expect(out).toEqual({
    before: [],
    stdio: true,
    afterStdio: [],
    transformerAtStdio: false,
    server: true,
    afterServer: ['transports/http'],
    client: 'function',
    after: ['client', 'testing', 'auth', 'guards', 'transports/http'],
    undefinedNames: [],
  });
});

test('packages a stdio start-up does not use load on first use; tsyringe\'s container is the one its index exports', () => {
  const script = `
    require('reflect-metadata');
    const loaded = (end) => Object.keys(require.cache).some((f) => f.includes(end));
    const probes = { tsyringeIndex: '/tsyringe/dist/cjs/index.js', interpreter: '/@cfworker/json-schema/' };
    const omc = require('onemodelcontext');
    const atImport = Object.keys(probes).filter((k) => loaded(probes[k]));
    omc.McpApplication.create({ name: 'lazy', version: '1.0.0', providers: [] });
    const atCreate = Object.keys(probes).filter((k) => loaded(probes[k]));
    const sameContainer = omc.container === require('tsyringe').container;
    const injectable = typeof omc.injectable;
    console.log(JSON.stringify({ atImport, atCreate, sameContainer, injectable }));`;
  const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: root }).toString());
  expect(out).toEqual({ atImport: [], atCreate: [], sameContainer: true, injectable: 'function' });
});

test("a Field's nested type reaches the app's own class-transformer (one metadata storage)", () => {
  const script = `
    require('reflect-metadata');
    const { Field } = require('onemodelcontext');
    class Inner {}
    class Outer {}
    Field({ type: () => Inner })(Outer.prototype, 'inner');
    const { plainToInstance } = require('class-transformer');
    console.log(JSON.stringify({ nested: plainToInstance(Outer, { inner: {} }).inner instanceof Inner }));`;
  const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: root }).toString());
  expect(out).toEqual({ nested: true });
});

test('the CommonJS build is one bundle: every entry and deep file shares one copy of each class', () => {
  const script = `
    require('reflect-metadata');
    const root = require('onemodelcontext');
    const deep = require('./dist/cjs/app/application.js');
    const web = require('onemodelcontext/web');
    const errors = require('./dist/cjs/errors/framework-error.js');
    const client = require('./dist/cjs/client/context-client.js'); // left out of the bundle: a plain file
    const http = require('./dist/cjs/transports/http/http-options.js'); // in bundle-http.js
    console.log(JSON.stringify({
      deep: deep.McpApplication === root.McpApplication,
      web: web.McpApplication === root.McpApplication,
      errors: errors.FrameworkError === root.FrameworkError,
      client: client.ContextClient === root.ContextClient,
      http: http.HttpOptions === root.HttpOptions
        && root.serveHttp === require('./dist/cjs/transports/http/index.js').serveHttp,
      httpStub: require('node:fs').readFileSync('dist/cjs/transports/http/serve-http.js', 'utf8')
        .includes('bundle-http.js'),
      stub: require('node:fs').readFileSync('dist/cjs/app/application.js', 'utf8').includes('bundle.js'),
    }));`;
  const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: root }).toString());
  expect(out).toEqual({ deep: true, web: true, errors: true, client: true, http: true, httpStub: true, stub: true });
});

test('a stdio start-up runs (and parses) none of the modules it does not use yet; first use runs them, one copy each', () => {
  const script = `
    require('reflect-metadata');
    const { IsString } = require('class-validator');
    const omc = require('onemodelcontext');
    const cold = () => Object.keys(require.cache).some((f) => f.endsWith('/dist/cjs/bundle-cold.js'));
    const evaluated = () => [
      ...require('./dist/cjs/bundle.js').evaluated(),
      ...(cold() ? require('./dist/cjs/bundle-cold.js').evaluated() : []),
    ];
    const lazy = ['registry/uri-template.js', 'skills/skill-set.js', 'skills/read-skill-folder.js',
      'schema/dto-validator.js', 'schema/json-schema-validator.js', 'schema/elicitation-form.js',
      'approval/page-route.js'];
    const ran = () => lazy.filter((f) => evaluated().includes('dist/cjs/' + f));
    class Args {}
    IsString()(Args.prototype, 'text');
    Reflect.defineMetadata('design:type', String, Args.prototype, 'text');
    class Tools { echo(args) { return args.text; } }
    Reflect.defineMetadata('design:paramtypes', [Args], Tools.prototype, 'echo');
    const echo = Object.getOwnPropertyDescriptor(Tools.prototype, 'echo');
    omc.Tool({ description: 'echo' })(Tools.prototype, 'echo', echo);
    const app = omc.McpApplication.create({ name: 'lazy', version: '1.0.0', providers: [Tools] });
    const atCreate = ran();
    const coldAtCreate = cold();
    app.addResourceTemplate({ uriTemplate: 'note://{id}', name: 'note', handler: () => 'x' });
    const tool = app.endpoint.core.registry.tool('echo');
    const checked = tool.validate({ text: 'hi' });
    const afterUse = ran();
    const UriTemplate = require('./dist/cjs/registry/uri-template.js').UriTemplate;
    const sameClass = app.endpoint.core.registry.listResourceTemplates()[0].template instanceof UriTemplate;
    console.log(JSON.stringify({ atCreate, coldAtCreate, afterUse, checked: checked.ok, sameClass }));`;
  const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: root }).toString());
  expect(out).toEqual({
    atCreate: [],
    coldAtCreate: false,
    afterUse: ['registry/uri-template.js', 'schema/dto-validator.js'],
    checked: true,
    sameClass: true,
  });
});

test('a stdio server answers initialize loading no node:crypto nor bundle-request.js; the key is drawn on first use', () => {
  const script = `
    require('reflect-metadata');
    const omc = require('onemodelcontext');
    const crypto = () => process.moduleLoadList.includes('NativeModule crypto');
    const loaded = (bundle) => Object.keys(require.cache).some((f) => f.endsWith('/dist/cjs/' + bundle));
    class Tools { echo() { return 'x'; } }
    const echo = Object.getOwnPropertyDescriptor(Tools.prototype, 'echo');
    omc.Tool({ description: 'echo' })(Tools.prototype, 'echo', echo);
    const app = omc.McpApplication.create({ name: 'lazy', version: '1.0.0', providers: [Tools] });
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = (chunk, ...rest) => {
      if (String(chunk).includes('"protocolVersion"')) {
        const atAnswer = crypto();
        const bundles = ['bundle-request.js', 'bundle-cold.js', 'bundle-http.js'].filter(loaded);
        const fingerprint = /^[0-9a-f]{16}$/.test(app.stateKeyFingerprint);
        process.stderr.write(JSON.stringify({ atAnswer, bundles, fingerprint, afterFingerprint: crypto() }));
      }
      return write(chunk, ...rest);
    };
    void omc.serveStdio(app);`;
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'lazy', version: '1' } },
  };
  // A file, not \`node -e\`: evaluating a string loads node:crypto itself.
  mkdirSync(join(root, 'test-output'), { recursive: true });
  const dir = mkdtempSync(join(root, 'test-output', 'lazy-entry-'));
  const file = join(dir, 'stdio-app.js');
  writeFileSync(file, script);
  const child = spawnSync(process.execPath, [file], { cwd: root, input: `${JSON.stringify(initialize)}\n` });
  rmSync(dir, { recursive: true, force: true });
  expect(child.stdout.toString()).toContain('"protocolVersion"');
  const seen = JSON.parse(child.stderr.toString());
  expect(seen).toEqual({ atAnswer: false, bundles: [], fingerprint: true, afterFingerprint: true });
});

test('bundle-request.js loads on the first request past initialize: not at an HTTP start, nor for a public name', () => {
  const script = `
    require('reflect-metadata');
    const loaded = () => Object.keys(require.cache).some((f) => f.endsWith('/dist/cjs/bundle-request.js'));
    const omc = require('onemodelcontext');
    const web = require('onemodelcontext/web');
    for (const entry of [omc, web]) for (const name of Object.keys(entry)) void entry[name];
    const onNames = loaded();
    class Tools { echo() { return 'x'; } }
    const echo = Object.getOwnPropertyDescriptor(Tools.prototype, 'echo');
    omc.Tool({ description: 'echo' })(Tools.prototype, 'echo', echo);
    const app = omc.McpApplication.create({ name: 'lazy', version: '1.0.0', providers: [Tools] });
    web.createFetchHandler(app);
    omc.serveHttp(app, { port: 0, host: '127.0.0.1' }).then(async (http) => {
      const atListen = loaded();
      const post = (body) => fetch('http://127.0.0.1:' + http.port + '/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', ...body }),
      }).then((r) => r.text());
      const init = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'lazy', version: '1' } };
      await post({ id: 1, method: 'initialize', params: init });
      const atInitialize = loaded();
      const called = await post({ id: 2, method: 'tools/call', params: { name: 'echo', arguments: {} } });
      const afterCall = loaded();
      console.log(JSON.stringify({ onNames, atListen, atInitialize, afterCall, called: called.includes('"x"') }));
      await http.close();
    });`;
  const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: root }).toString());
  expect(out).toEqual({ onNames: false, atListen: false, atInitialize: false, afterCall: true, called: true });
});
