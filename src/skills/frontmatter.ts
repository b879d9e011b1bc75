/**
 * A SKILL.md's YAML frontmatter, read the same way on both sides: the server renders it verbatim
 * into the skill entry, the client compares a fetched SKILL.md against the entry it holds. YAML 1.2
 * core schema, no aliases, unique keys; only JSON values (no dates, no infinities, string keys).
 */
import type { JsonObject } from '../protocol/jsonrpc';
import { SKILL_NAME_PATTERN, type SkillFrontmatter } from '../protocol/skills';

/* eslint-disable @typescript-eslint/no-require-imports */
type YamlModule = typeof import('yaml');
let yamlModule: YamlModule | undefined;
/** `yaml` loads on the first SKILL.md: a server without skills (and a client that reads none) never pays for it. */
function yaml(): YamlModule {
  return (yamlModule ??= require('yaml') as YamlModule);
}
/* eslint-enable @typescript-eslint/no-require-imports */

/** Agent Skills: a description is 1–1024 characters. */
const MAX_DESCRIPTION = 1024;
const BLOCK = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

export type FrontmatterResult = { ok: true; frontmatter: SkillFrontmatter } | { ok: false; problem: string };

/** The frontmatter of a SKILL.md text, or what is wrong with it (a sentence naming the field). */
export function parseFrontmatter(text: string): FrontmatterResult {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const block = BLOCK.exec(body);
  if (!block) return { ok: false, problem: 'does not begin with a --- delimited YAML frontmatter block' };
  let value: unknown;
  try {
    value = yaml().parse(block[1]!, { schema: 'core', uniqueKeys: true, maxAliasCount: 0, prettyErrors: false });
  } catch (e) {
    return { ok: false, problem: `has frontmatter that is not valid YAML (${(e as Error).message.split('\n')[0]})` };
  }
  if (!isPlainObject(value)) return { ok: false, problem: 'has frontmatter that is not a YAML mapping' };
  const notJson = nonJsonPath(value, 'frontmatter');
  if (notJson) return { ok: false, problem: `has a frontmatter value that is not plain JSON data at ${notJson}` };
  const { name, description } = value;
  if (typeof name !== 'string' || name.length === 0) return { ok: false, problem: 'has no frontmatter `name`' };
  if (!SKILL_NAME_PATTERN.test(name)) {
    return {
      ok: false,
      problem: `has name ${JSON.stringify(name)}, which breaks the Agent Skills naming rule (1-64 of a-z, 0-9 and -, no leading, trailing or doubled -)`,
    };
  }
  if (typeof description !== 'string' || description.trim().length === 0) {
    return { ok: false, problem: 'has no frontmatter `description`' };
  }
  if (description.length > MAX_DESCRIPTION) {
    return { ok: false, problem: `has a description of ${description.length} characters (at most ${MAX_DESCRIPTION})` };
  }
  return { ok: true, frontmatter: value as SkillFrontmatter };
}

/** Field-by-field equality of two frontmatter objects (as JSON values). */
export function sameFrontmatter(a: JsonObject, b: JsonObject): boolean {
  return sameJson(a, b);
}

/** The first differing top-level field of two frontmatter objects, for an error message. */
export function firstDifference(a: JsonObject, b: JsonObject): string | undefined {
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (!sameJson(a[key], b[key])) return key;
  }
  return undefined;
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((v, i) => sameJson(v, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    const has = (k: string) => Object.prototype.hasOwnProperty.call(b, k);
    return keys.length === Object.keys(b).length && keys.every((k) => has(k) && sameJson(a[k], b[k]));
  }
  return false;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** Where a value stops being JSON (a Date, an infinity, a Map), or undefined when it all is. */
function nonJsonPath(v: unknown, at: string): string | undefined {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return undefined;
  if (typeof v === 'number') return Number.isFinite(v) ? undefined : at;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const bad = nonJsonPath(v[i], `${at}[${i}]`);
      if (bad) return bad;
    }
    return undefined;
  }
  if (!isPlainObject(v)) return at;
  for (const [k, child] of Object.entries(v)) {
    const bad = nonJsonPath(child, `${at}.${k}`);
    if (bad) return bad;
  }
  return undefined;
}
