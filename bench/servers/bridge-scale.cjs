// Issue 38's mounted-tools fixture: an app that mounts one upstream (UPSTREAM: a script, run with this
// node; NTOOLS passes through to it) and serves its tools over stdio, answering once they are mounted.
// maxListItems is raised past the default 1 000 (a cap on hostile upstreams) so 5 000 tools mount.
require('reflect-metadata');
const { resolve } = require('node:path');

const DIST = process.env.OMC_DIST || resolve(__dirname, '../../dist/cjs');
const { McpApplication, mountServer, serveStdio } = require(`${DIST}/index.js`);

async function main() {
  const app = McpApplication.create({ name: 'bridge-scale', version: '1.0.0', providers: [] });
  await mountServer(app, {
    namespace: 'upstream', prefixNames: false, maxListItems: 100_000,
    command: process.execPath, args: [process.env.UPSTREAM],
    onEvent: (m) => process.stderr.write(`${m}\n`),
  });
  await serveStdio(app);
}
main().catch((e) => { process.stderr.write(`${e.stack}\n`); process.exit(1); });
