/** Finds the fenced ```ts blocks of a markdown file and turns each into a compilable module. */

export type BlockMode = 'run' | 'fragment' | 'module';

export interface CodeBlock {
  /** e.g. docs/security.md */
  file: string;
  /** Line of the opening fence (1-based). */
  line: number;
  mode: BlockMode;
  code: string;
}

export function extractTsBlocks(markdown: string, file: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*(\S*)/.exec(lines[i]!);
    if (!open) continue;
    const fence = open[2]!;
    const end = lines.findIndex((l, j) => j > i && l.trim().startsWith(fence));
    if (end < 0) throw new Error(`${file}:${i + 1}: unclosed code fence`);
    const lang = open[3]!.toLowerCase();
    if (lang === 'ts' || lang === 'typescript') {
      const code = lines.slice(i + 1, end).join('\n');
      const first = code.trimStart().split('\n')[0]!.trim();
      const mode: BlockMode = first === '// run' ? 'run' : first === '// fragment' ? 'fragment' : 'module';
      blocks.push({ file, line: i + 1, mode, code });
    }
    i = end;
  }
  return blocks;
}

/**
 * The module written for a block. `run` blocks with a `main()` are kept as written (see mainProgram);
 * other `run` and `fragment` blocks are statements: their imports are
 * hoisted and the rest becomes the body of an exported async function (so `await` works at the
 * top of an example). A fragment may use `ctx` and `app` without declaring them.
 */
export function toModule(block: CodeBlock): string {
  if (block.mode === 'module') return `${block.code}\nexport {};\n`;
  if (block.mode === 'run' && /^async function main\(/m.test(block.code)) return mainProgram(block.code);
  const imports: string[] = [];
  const body: string[] = [];
  const lines = block.code.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^import\b/.test(line)) {
      // A multi-line import runs to the line that names its module.
      let j = i;
      while (!/['"];?\s*$/.test(lines[j]!) && j < lines.length - 1) j++;
      imports.push(...lines.slice(i, j + 1));
      i = j;
    } else body.push(line);
  }
  const ambient =
    block.mode === 'fragment'
      ? [
          "declare const ctx: import('onemodelcontext').Context;",
          "declare const app: import('onemodelcontext').McpApplication;",
        ]
      : [];
  return [
    ...imports,
    ...ambient,
    'export default async function example(): Promise<void> {',
    ...body,
    '}',
    '',
  ].join('\n');
}

/**
 * A `// run` block written as a whole program — `async function main()` and a last statement that
 * calls it — is compiled as written; the call is replaced by `export default main` so the test
 * awaits it.
 */
function mainProgram(code: string): string {
  const start = code.search(/^main\(\)/m);
  if (start < 0) throw new Error('a // run block with `async function main()` must end by calling main()');
  return `${code.slice(0, start)}export default main;\n`;
}
