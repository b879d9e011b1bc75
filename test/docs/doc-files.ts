/** The markdown the docs tests read, and the ```ts blocks of it written out as modules. */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { extractTsBlocks, toModule, type CodeBlock } from './extract-blocks';

export const repo = join(__dirname, '..', '..');

/** README.md and docs/*.md, as paths relative to the repository. */
export function markdownFiles(): string[] {
  return [
    ...(existsSync(join(repo, 'README.md')) ? ['README.md'] : []),
    ...readdirSync(join(repo, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .sort()
      .map((f) => `docs/${f}`),
  ];
}

export interface Generated extends CodeBlock {
  path: string;
}

/** Writes every ```ts block into `outDir` (emptied first), one module each. */
export function writeBlocks(outDir: string): Generated[] {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  return markdownFiles().flatMap((file) =>
    extractTsBlocks(readFileSync(join(repo, file), 'utf8'), file).map((block) => {
      const path = join(outDir, `${file.replace(/[/.]/g, '_')}_L${block.line}.ts`);
      writeFileSync(path, toModule(block));
      return { ...block, path };
    }),
  );
}

/** `onemodelcontext` and its subpaths → the built declarations an installed app compiles against. */
export function builtDeclarations(): Record<string, string> {
  const manifest = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as {
    exports: Record<string, string | { types?: string }>;
  };
  const map: Record<string, string> = {};
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    if (typeof target === 'object' && target.types)
      map[subpath === '.' ? 'onemodelcontext' : `onemodelcontext/${subpath.slice(2)}`] = join(repo, target.types);
  }
  return map;
}
