/**
 * Issue 33: the docs hold no path of a developer's machine, and every relative link of README.md,
 * docs/, bench/ and templates/ points at a file of this repository (and at a heading of it, for
 * `file.md#anchor`).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { repo } from './doc-files';

function markdownUnder(dir: string): string[] {
  return readdirSync(join(repo, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? markdownUnder(join(dir, e.name))
      : /\.md(\.tmpl)?$/.test(e.name)
        ? [join(dir, e.name)]
        : [],
  );
}

const files = ['README.md', ...['docs', 'bench', 'templates', 'sample-app'].flatMap(markdownUnder)];

/** The text outside code blocks and inline code (a link inside them is an example, not a link). */
function prose(markdown: string): string {
  return markdown.replace(/^(`{3,}|~{3,})[\s\S]*?^\1/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .replace(/\s/g, '-');
}

function anchors(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/^(`{3,}|~{3,})[\s\S]*?^\1/gm, '');
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, heading] of text.matchAll(/^#{1,6}\s+(.+)$/gm)) {
    const base = slug(heading!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

test('the docs are found', () => {
  expect(files).toEqual(expect.arrayContaining(['README.md', 'docs/architecture.md', 'templates/README.md']));
});

test('no path of a developer machine in the docs', () => {
  const machinePath = /(?:\/work\/|\/home\/\w|\/root\/|\/Users\/\w|[A-Z]:\\\\)/;
  const found = files.flatMap((file) =>
    readFileSync(join(repo, file), 'utf8')
      .split('\n')
      .flatMap((line, i) => (machinePath.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
  );
  expect(found).toEqual([]);
});

test('no citation of pages kept outside the repository (the design notes, the shared references)', () => {
  const outside = /\bDESIGN\b|shared\/reference|\.\.\/shared\//;
  // bench/ notes measurements for contributors; the pages a user reads are these.
  const found = files
    .filter((file) => !file.startsWith('bench/'))
    .flatMap((file) =>
      readFileSync(join(repo, file), 'utf8')
        .split('\n')
        .flatMap((line, i) => (outside.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
  expect(found).toEqual([]);
});

test('every relative link resolves to a file (and a heading) of the repository', () => {
  const broken: string[] = [];
  for (const file of files) {
    const text = prose(readFileSync(join(repo, file), 'utf8'));
    const targets = [
      ...[...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!),
      ...[...text.matchAll(/^\[[^\]]+\]:\s*(\S+)/gm)].map((m) => m[1]!),
      ...[...text.matchAll(/\bhref="([^"]+)"/g)].map((m) => m[1]!),
    ];
    for (const target of targets) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, …
      const [path, anchor] = target.split('#') as [string, string | undefined];
      const resolved = path ? join(repo, dirname(file), decodeURIComponent(path)) : join(repo, file);
      if (!resolved.startsWith(repo) || !existsSync(resolved)) {
        broken.push(`${file}: ${target} (no ${relative(repo, resolved)})`);
        continue;
      }
      if (anchor && statSync(resolved).isFile() && resolved.endsWith('.md') && !anchors(resolved).has(anchor))
        broken.push(`${file}: ${target} (no heading #${anchor})`);
    }
  }
  expect(broken).toEqual([]);
});
