/**
 * What a host checks of a skill entry before it loads anything from it (SEP-2640 §Skill Entries):
 * the three fields, the name in the URI, a complete and in-bounds `resources` list.
 */
import {
  SKILL_DIGEST_PATTERN,
  SKILL_LIMITS,
  skillNameOf,
  skillRootOf,
  type Skill,
} from '../protocol/skills';

/** What is wrong with an entry (undefined: it may be loaded). */
export function entryProblem(entry: unknown): string | undefined {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return 'is not an object';
  const e = entry as Partial<Skill>;
  if (typeof e.uri !== 'string') return 'has no uri';
  const root = skillRootOf(e.uri);
  if (root === undefined) return `has uri ${e.uri}, which does not end in /<name>/SKILL.md`;
  const fm = e.frontmatter;
  if (typeof fm !== 'object' || fm === null || Array.isArray(fm)) return 'has no frontmatter object';
  if (typeof fm.name !== 'string' || typeof fm.description !== 'string') {
    return 'has no frontmatter name and description';
  }
  if (skillNameOf(e.uri) !== fm.name) return `names ${JSON.stringify(fm.name)}, but its uri ends in ${skillNameOf(e.uri)}`;
  if (e.resources === 'dynamic') return undefined;
  if (!Array.isArray(e.resources)) return 'has resources that are neither a list nor "dynamic"';
  if (e.resources.length > SKILL_LIMITS.files) return `lists ${e.resources.length} files (over ${SKILL_LIMITS.files})`;
  let total = 0;
  const seen = new Set<string>();
  for (const r of e.resources) {
    if (typeof r?.uri !== 'string' || (r.uri !== e.uri && !r.uri.startsWith(`${root}/`))) {
      return `lists ${JSON.stringify(r?.uri)}, which is outside the skill`;
    }
    if (seen.has(r.uri)) return `lists ${r.uri} twice`;
    seen.add(r.uri);
    if (typeof r.digest !== 'string' || !SKILL_DIGEST_PATTERN.test(r.digest)) {
      return `has a malformed digest for ${r.uri}`;
    }
    if (!Number.isSafeInteger(r.size) || r.size < 0) return `has a malformed size for ${r.uri}`;
    total += r.size;
  }
  if (!seen.has(e.uri)) return 'does not list its own SKILL.md';
  if (total > SKILL_LIMITS.bytes) return `adds up to ${total} bytes (over ${SKILL_LIMITS.bytes})`;
  return undefined;
}
