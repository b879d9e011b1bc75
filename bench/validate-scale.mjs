// Per-call cost of a tools/call whose DTO has a custom constraint (so it goes through class-validator's own
// validate(), not the fast path), with N other DTO classes registered: flat in N is the goal (issue 38).
// Fresh child per (build, N), pinned to CPU 0; CPU µs per validation, median of 5 batches of 2 000.
//
//   npm run build && node bench/validate-scale.mjs [--base <dist/cjs copy>] [--sizes 50,5000]
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pinned } from './lib/procs.mjs';

const { values: a } = parseArgs({ options: { base: { type: 'string' }, sizes: { type: 'string', default: '50,5000' }, child: { type: 'string' } } });
const builds = [['ours', resolve('dist/cjs')], ...(a.base ? [['ours-base', resolve(a.base)]] : [])];

if (a.child) {
  const { createRequire } = await import('node:module');
  const require = createRequire(import.meta.url);
  require('reflect-metadata');
  const cv = require('class-validator');
  const { createDtoValidator } = require(`${a.child}/schema/index.js`);
  const n = Number(process.env.NDTOS);
  for (let i = 0; i < n; i++) {
    const Other = class {};
    cv.IsString()(Other.prototype, 'text');
    cv.IsInt()(Other.prototype, 'count');
    Reflect.defineMetadata('design:type', String, Other.prototype, 'text');
    Reflect.defineMetadata('design:type', Number, Other.prototype, 'count');
    createDtoValidator(Other);
  }
  class NotBlank { validate(v) { return typeof v === 'string' && v.trim() !== ''; } }
  cv.ValidatorConstraint({ name: 'notBlank' })(NotBlank);
  class Args {}
  cv.IsString()(Args.prototype, 'text');
  cv.Validate(NotBlank)(Args.prototype, 'label');
  for (const key of ['text', 'label']) Reflect.defineMetadata('design:type', String, Args.prototype, key);
  const validate = createDtoValidator(Args);
  const input = { text: 'hi', label: 'x' };
  if (!validate(input).ok) throw new Error('the valid input was refused');
  const batches = [];
  for (let b = 0; b < 6; b++) {
    const t0 = process.cpuUsage();
    for (let i = 0; i < 2000; i++) validate(input);
    const t = process.cpuUsage(t0);
    if (b > 0) batches.push((t.user + t.system) / 2000);
  }
  batches.sort((x, y) => x - y);
  console.log(batches[2].toFixed(2));
} else {
  const rows = [];
  for (const n of a.sizes.split(',').map(Number)) {
    for (const [label, dist] of builds) {
      const [cmd, args] = pinned(0, [process.execPath, fileURLToPath(import.meta.url), '--child', dist]);
      const us = Number(execFileSync(cmd, args, { env: { ...process.env, NDTOS: String(n) } }).toString().trim());
      rows.push({ build: label, 'other DTOs': n, 'CPU µs per validate': us });
    }
  }
  console.table(rows);
}
