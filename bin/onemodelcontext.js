#!/usr/bin/env node
'use strict';
// Thin launcher: the CLI is compiled with the library into dist/cjs/cli.
require('../dist/cjs/cli/main.js')
  .runCli(process.argv.slice(2))
  .then((code) => (process.exitCode = code), (error) => {
    process.stderr.write(`${error && error.stack ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  });
