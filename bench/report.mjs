// Regenerates RESULTS.md and results.svg from results.json without re-running anything
// (e.g. after bench/profile.mjs or an edit of bench/profile-notes.md).
//   node bench/report.mjs [bench/out/]
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { writeReport } from './lib/report.mjs';

const dir = process.argv[2] ? `${process.argv[2].replace(/\/?$/, '/')}` : fileURLToPath(new URL('./', import.meta.url));
writeReport(JSON.parse(readFileSync(`${dir}results.json`, 'utf8')), dir);
