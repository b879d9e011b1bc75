#!/usr/bin/env node
'use strict';
// Thin launcher: the CLI is compiled with the library into dist/cjs/cli.
process.exitCode = require('../dist/cjs/cli/main.js').runCli(process.argv.slice(2));
