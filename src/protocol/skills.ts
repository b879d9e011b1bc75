/**
 * The Skills extension (SEP-2640, `io.modelcontextprotocol/skills`): its wire types, method names
 * and the rules both sides check (skill names, digests, the per-skill limits). Pure: no I/O.
 */
import type { JsonObject } from './jsonrpc';

export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';
export const SKILLS_LIST = 'skills/list';
export const SKILLS_GET = 'skills/get';
export const DIRECTORY_READ = 'resources/directory/read';
export const DIRECTORY_MIME_TYPE = 'inode/directory';
export const SKILL_FILE = 'SKILL.md';
export const SKILL_SCHEME = 'skill://';

/** Per skill: hosts must accept up to these; servers should not publish more (SEP-2640 §Limits). */
export const SKILL_LIMITS = Object.freeze({ files: 512, bytes: 16 * 1024 * 1024 });

/** One file of a skill, with what a host needs to verify it. */
export interface SkillResource {
  uri: string;
  /** `sha256:` and 64 lowercase hex digits, over the file's raw bytes. */
  digest: string;
  /** Length of the file's raw bytes. */
  size: number;
}

/** A skill's SKILL.md frontmatter as JSON, verbatim. */
export interface SkillFrontmatter extends JsonObject {
  name: string;
  description: string;
}

/** One skill, as `skills/list` and `skills/get` carry it. */
export interface Skill {
  /** URI of the skill's SKILL.md. */
  uri: string;
  frontmatter: SkillFrontmatter;
  /** Every file of the skill (SKILL.md included), or `"dynamic"` when no stable digests exist. */
  resources: SkillResource[] | 'dynamic';
  _meta?: JsonObject;
}

/**
 * Agent Skills naming rule for a skill's name (the final skill-path segment): 1–64 characters,
 * lowercase letters, digits and hyphens, no leading, trailing or doubled hyphen.
 */
export const SKILL_NAME_PATTERN = /^(?!.*--)[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

export const SKILL_DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/;

/** The skill name a SKILL.md URI carries (its last path segment before `/SKILL.md`), if any. */
export function skillNameOf(uri: string): string | undefined {
  const at = uri.indexOf('://');
  if (at < 0 || !uri.endsWith(`/${SKILL_FILE}`)) return undefined;
  const segments = uri.slice(at + 3).split('/');
  return segments.length >= 2 ? segments[segments.length - 2] || undefined : undefined;
}

/** The skill's root directory URI: its SKILL.md URI without `/SKILL.md` (no trailing slash). */
export function skillRootOf(uri: string): string | undefined {
  return skillNameOf(uri) === undefined ? undefined : uri.slice(0, -(SKILL_FILE.length + 1));
}
