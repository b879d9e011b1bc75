/** Name rules for the scaffolder: npm package names, class names, and the file/tool names derived from them. */

export type Kind = 'tool' | 'prompt' | 'resource' | 'resource-template';
export const KINDS: readonly Kind[] = ['tool', 'prompt', 'resource', 'resource-template'];

/** npm's rules for a new package name (lowercase, URL-safe, optional scope, at most 214 characters). */
export function packageNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'the package name is empty';
  if (name.length > 214) return 'a package name has at most 214 characters';
  if (!/^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/.test(name)) {
    return 'use lowercase letters, digits, "-", "." or "_" (optionally @scope/name), starting with a letter or digit';
  }
  if (name === 'node_modules' || name === 'favicon.ico') return `"${name}" is reserved by npm`;
  return undefined;
}

/** Turns a folder name into a package name suggestion: "My Server" → "my-server". */
export function packageNameFromFolder(folder: string): string {
  return folder
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, '-')
    .replace(/^[-._~]+|[-._~]+$/g, '') || 'mcp-server';
}

const RESERVED_WORDS = new Set(
  'break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package private protected public await'.split(
    ' ',
  ),
);

/** A class-style name the user types after `add`: PascalCase letters and digits, e.g. `Weather` or `BookFlight`. */
export function classNameProblem(name: string): string | undefined {
  if (!/^[A-Z][A-Za-z0-9]*$/.test(name))
    return `"${name}" is not a PascalCase name (letters and digits, starting with a capital, e.g. Weather)`;
  if (name.length > 64) return 'keep names to 64 characters';
  if (RESERVED_WORDS.has(name.toLowerCase())) return `"${name}" is a reserved word`;
  return undefined;
}

const SUFFIX: Record<Kind, string> = {
  tool: 'Tool',
  prompt: 'Prompt',
  resource: 'Resource',
  'resource-template': 'ResourceTemplate',
};

/** Every spelling a generated file needs, from one PascalCase name. */
export interface Names {
  /** `WeatherTool`: the class registered in the provider list. */
  className: string;
  /** `Weather`: the name without the kind suffix. */
  base: string;
  /** `weather`: file names. */
  kebab: string;
  /** `weather`: the MCP tool/prompt/resource name. */
  snake: string;
  /** `weather.tool` (`weather.resource-template`): the module name, without `.ts`. */
  moduleName: string;
}

export function namesFor(kind: Kind, name: string): Names {
  const suffix = SUFFIX[kind];
  // `add tool WeatherTool` should not give WeatherToolTool.
  const base = name.length > suffix.length && name.endsWith(suffix) ? name.slice(0, -suffix.length) : name;
  const words = base.match(/[A-Z]+(?![a-z])|[A-Z][a-z0-9]*|[0-9]+/g) ?? [base];
  const lower = words.map((w) => w.toLowerCase());
  const kebab = lower.join('-');
  return { className: base + suffix, base, kebab, snake: lower.join('_'), moduleName: `${kebab}.${kind}` };
}
