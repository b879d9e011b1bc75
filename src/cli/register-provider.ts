/**
 * The one text edit `add` makes to src/app.ts: import the new class and append it to the
 * `providers: [...]` array. Deliberately small; anything it cannot read safely is an error
 * that tells the user what to add by hand, never a guess.
 */

export class ProviderEditError extends Error {
  override readonly name = 'ProviderEditError';
}

export interface ProviderEdit {
  className: string;
  /** Module specifier relative to app.ts, e.g. `./weather.tool`. */
  from: string;
}

export function registerProvider(source: string, edit: ProviderEdit): string {
  const { className, from } = edit;
  const manual = `add \`import { ${className} } from '${from}';\` and put ${className} in the providers array by hand`;
  const starts = [...source.matchAll(/\bproviders\s*:\s*\[/g)];
  if (starts.length === 0) throw new ProviderEditError(`Could not find \`providers: [\` in src/app.ts; ${manual}.`);
  if (starts.length > 1)
    throw new ProviderEditError(`Found ${starts.length} \`providers: [\` arrays in src/app.ts; ${manual}.`);
  const open = starts[0]!.index! + starts[0]![0].length - 1;
  const close = matchingBracket(source, open);
  if (close === undefined) throw new ProviderEditError(`The providers array in src/app.ts is not closed; ${manual}.`);

  const inside = source.slice(open + 1, close);
  if (new RegExp(`(^|[^\\w$])${className}([^\\w$]|$)`).test(stripComments(inside))) {
    throw new ProviderEditError(`${className} is already in the providers array of src/app.ts.`);
  }
  const withProvider = source.slice(0, open + 1) + appendItem(inside, className) + source.slice(close);
  return addImport(withProvider, `import { ${className} } from '${from}';`);
}

/** Appends an item keeping the array's layout: one line (`[A, B]`) or one item per line. */
function appendItem(inside: string, item: string): string {
  const body = inside.replace(/\s+$/, '');
  if (body.trim() === '')
    return inside.includes('\n')
      ? `\n${indentAfterNewline(inside) || '    '}${item},${trailingWhitespace(inside)}`
      : item;
  const hasTrailingComma = stripComments(body).trimEnd().endsWith(',');
  const tail = inside.slice(body.length);
  if (!inside.includes('\n')) return `${body}${hasTrailingComma ? ' ' : ', '}${item}${tail}`;
  const lastLine = body.slice(body.lastIndexOf('\n') + 1);
  const indent = /^\s*/.exec(lastLine)![0];
  // Put the comma right after the last item's code, not after a trailing line comment.
  const withComma = hasTrailingComma ? body : addCommaAfterCode(body);
  return `${withComma}\n${indent}${item},${tail}`;
}

function addCommaAfterCode(body: string): string {
  const lineStart = body.lastIndexOf('\n') + 1;
  const lastLine = body.slice(lineStart);
  const comment = lastLine.search(/\s*\/\/|\s*\/\*/);
  if (comment <= 0 || lastLine.trim().startsWith('//')) return `${body},`;
  return body.slice(0, lineStart) + lastLine.slice(0, comment) + ',' + lastLine.slice(comment);
}

function indentAfterNewline(text: string): string {
  return /\n([ \t]*)\S/.exec(text)?.[1] ?? '';
}

function trailingWhitespace(text: string): string {
  return /\s*$/.exec(text)![0].replace(/^[^\n]*/, '') || '\n';
}

/** Inserts the import after the last top-level import statement (or at the top). */
export function addImport(source: string, importLine: string): string {
  if (source.includes(importLine)) return source;
  const imports = [...source.matchAll(/^import\b[^;]*?(?:from\s*)?['"][^'"\n]+['"]\s*;?[ \t]*$/gm)];
  const last = imports[imports.length - 1];
  if (!last) return `${importLine}\n${source}`;
  const end = last.index! + last[0].length;
  return `${source.slice(0, end)}\n${importLine}${source.slice(end)}`;
}

/** Index of the `]` matching the `[` at `open`, skipping strings, template literals and comments. */
export function matchingBracket(source: string, open: number): number | undefined {
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    const c = source[i]!;
    if (c === '"' || c === "'" || c === '`') {
      i = endOfString(source, i);
      continue;
    }
    if (c === '/' && source[i + 1] === '/') {
      const nl = source.indexOf('\n', i);
      if (nl < 0) return undefined;
      i = nl;
      continue;
    }
    if (c === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2);
      if (end < 0) return undefined;
      i = end + 1;
      continue;
    }
    if (c === '[' || c === '(' || c === '{') depth++;
    else if (c === ']' || c === ')' || c === '}') {
      depth--;
      if (depth === 0) return c === ']' ? i : undefined;
    }
  }
  return undefined;
}

function endOfString(source: string, start: number): number {
  const quote = source[start];
  for (let i = start + 1; i < source.length; i++) {
    if (source[i] === '\\') i++;
    else if (source[i] === quote) return i;
  }
  return source.length;
}

function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/[^\n]*/g, '');
}
