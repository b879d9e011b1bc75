// The ES-module build bundled (issue 38): Node's ESM loader resolves, reads and links each of the ~360
// modules tsc emits, which costs an ESM app ~2.5× the time of loading them. esbuild bundles the six
// entries with code splitting: each entry is one file, and what entries share (the server, its classes)
// sits in shared chunks under dist/esm/chunks/, so every entry sees one copy of each class. Packages
// stay external (the app shares class-validator, tsyringe and the others with us); Node built-ins stay
// imports, so `onemodelcontext/web`'s graph still holds only what its modules import (and
// reflect-metadata, which every output file imports first).
import { build } from 'esbuild';
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { asciiOnly } from './cjs-bundle.mjs';

export async function bundleEsm(dir, entries) {
  const out = `${dir}-bundled`;
  rmSync(out, { recursive: true, force: true });
  await build({
    entryPoints: entries.map((file) => join(dir, `${file}.js`)),
    outbase: dir,
    outdir: out,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    chunkNames: 'chunks/[name]-[hash]',
    // Splitting can run a chunk with decorated classes before the chunk that imported reflect-metadata
    // (an app importing `onemodelcontext/redis` first did): every output file imports it first.
    banner: { js: 'import "reflect-metadata";' },
    legalComments: 'none',
    logLevel: 'warning',
  });
  for (const entry of readdirSync(out, { recursive: true })) {
    const file = join(out, entry);
    if (file.endsWith('.js')) writeFileSync(file, asciiOnly(readFileSync(file, 'utf8')));
  }
  // The per-module files give way to the bundled entries and chunks (package.json stays: "type": "module").
  for (const name of readdirSync(dir)) if (name !== 'package.json') rmSync(join(dir, name), { recursive: true });
  for (const name of readdirSync(out)) renameSync(join(out, name), join(dir, name));
  rmSync(out, { recursive: true, force: true });
}
