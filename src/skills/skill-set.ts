/**
 * A skills folder as the server publishes it (SEP-2640): every folder holding a SKILL.md is a skill
 * named after the folder; its entry carries the frontmatter verbatim and every file below it with a
 * digest and size; every folder is a directory resource. Malformed content is refused by name.
 */
import {
  DIRECTORY_MIME_TYPE,
  SKILL_FILE,
  SKILL_SCHEME,
  type Skill,
  type SkillFrontmatter,
} from '../protocol/skills';
import { skillDigest } from './digest';
import { parseFrontmatter } from './frontmatter';
import { mimeTypeOf, utf8Text } from './mime';
import type { FolderContents, FolderFile } from './read-skill-folder';
import { relativeLinks } from './skill-links';
import { invalidSkill } from './skill-errors';

export interface SkillFile {
  readonly uri: string;
  /** The file name (last segment), the resource's name unless it is a SKILL.md. */
  readonly name: string;
  readonly mimeType: string;
  readonly size: number;
  readonly digest: string;
  /** Present when the bytes are valid UTF-8: served as `text`, else as a base64 `blob`. */
  readonly text?: string;
  readonly bytes: Uint8Array;
}

export interface PublishedSkill {
  /** URI of its SKILL.md. */
  readonly uri: string;
  /** Its root directory URI. */
  readonly root: string;
  readonly frontmatter: SkillFrontmatter;
  readonly entry: Skill;
}

export interface DirectoryChild {
  readonly uri: string;
  readonly name: string;
  readonly mimeType: string;
  readonly size?: number;
}

export interface SkillSet {
  readonly skills: readonly PublishedSkill[];
  readonly files: readonly SkillFile[];
  /** Directory URI → its direct children. */
  readonly directories: ReadonlyMap<string, readonly DirectoryChild[]>;
}

export interface SkillSetLimits {
  /** Per skill, SKILL.md included (SEP-2640: 512). */
  readonly maxSkillFiles: number;
  /** Per skill, summed over its files (SEP-2640: 16 MiB). */
  readonly maxSkillBytes: number;
}

const SEGMENT = /^[A-Za-z0-9._~-]+$/;

/** Checks prefix segments (`acme/billing`): URI-safe, no `.` or `..`. */
export function prefixSegments(prefix: string | undefined, where: string): string[] {
  if (prefix === undefined || prefix === '') return [];
  const segments = prefix.split('/');
  for (const s of segments) {
    if (!SEGMENT.test(s) || s === '.' || s === '..') {
      throw invalidSkill(where, `has prefix ${JSON.stringify(prefix)}: each segment must be 1+ of A-Z a-z 0-9 . _ ~ - and not . or ..`);
    }
  }
  return segments;
}

export function buildSkillSet(
  where: string,
  contents: FolderContents,
  prefix: readonly string[],
  limits: SkillSetLimits,
): SkillSet {
  const uriOf = (path: readonly string[]) =>
    SKILL_SCHEME + [...prefix, ...path].map((s) => encodeURIComponent(s)).join('/');
  const skillDirs = contents.files
    .filter((f) => f.path[f.path.length - 1] === SKILL_FILE)
    .map((f) => f.path.slice(0, -1));
  if (skillDirs.some((d) => d.length === 0)) {
    throw invalidSkill(`folder ${where}`, `has a ${SKILL_FILE} at its root: put each skill in a folder named after it`);
  }
  const inside = (path: readonly string[], dir: readonly string[]) =>
    path.length > dir.length && dir.every((s, i) => path[i] === s);
  const files = contents.files.map((f) => {
    if (!skillDirs.some((d) => inside(f.path, d))) {
      throw invalidSkill(`file ${where}/${f.path.join('/')}`, 'is not inside any skill folder (a folder with a SKILL.md)');
    }
    return servedFile(f, uriOf(f.path));
  });
  const byPath = new Map(contents.files.map((f, i) => [f.path.join('/'), files[i]!]));
  const skills = skillDirs.map((dir) => {
    const label = `${where}/${dir.join('/')}`;
    const own = contents.files.filter((f) => inside(f.path, dir)).map((f) => byPath.get(f.path.join('/'))!);
    const skillMd = byPath.get([...dir, SKILL_FILE].join('/'))!;
    return publish(label, dir, skillMd, own, contents, limits, uriOf);
  });
  return { skills, files, directories: directoriesOf(contents, skillDirs, files, uriOf, prefix) };
}

function servedFile(f: FolderFile, uri: string): SkillFile {
  const name = f.path[f.path.length - 1]!;
  const text = utf8Text(f.bytes);
  return {
    uri,
    name,
    mimeType: mimeTypeOf(name),
    size: f.bytes.byteLength,
    digest: skillDigest(f.bytes),
    ...(text === undefined ? {} : { text }),
    bytes: f.bytes,
  };
}

function publish(
  label: string,
  dir: readonly string[],
  skillMd: SkillFile,
  own: readonly SkillFile[],
  contents: FolderContents,
  limits: SkillSetLimits,
  uriOf: (path: readonly string[]) => string,
): PublishedSkill {
  if (skillMd.text === undefined) throw invalidSkill(label, `has a ${SKILL_FILE} that is not UTF-8 text`);
  const parsed = parseFrontmatter(skillMd.text);
  if (!parsed.ok) throw invalidSkill(label, `${SKILL_FILE} ${parsed.problem}`);
  const folderName = dir[dir.length - 1]!;
  if (parsed.frontmatter.name !== folderName) {
    throw invalidSkill(label, `${SKILL_FILE} names the skill ${JSON.stringify(parsed.frontmatter.name)}, but its folder is ${JSON.stringify(folderName)} (they must be equal)`);
  }
  if (own.length > limits.maxSkillFiles) {
    throw invalidSkill(label, `has ${own.length} files, over the ${limits.maxSkillFiles}-file limit per skill`);
  }
  const total = own.reduce((sum, f) => sum + f.size, 0);
  if (total > limits.maxSkillBytes) {
    throw invalidSkill(label, `has ${total} bytes of files, over the ${limits.maxSkillBytes}-byte limit per skill`);
  }
  const paths = new Set(contents.files.map((f) => f.path.join('/')));
  const folders = new Set(contents.folders.map((f) => f.join('/')));
  for (const link of relativeLinks(skillMd.text)) {
    const target = resolveWithin(dir, link);
    if (target === undefined) throw invalidSkill(label, `${SKILL_FILE} links to ${JSON.stringify(link)}, which leaves the skill folder`);
    const key = target.join('/');
    if (!paths.has(key) && !folders.has(key)) {
      throw invalidSkill(label, `${SKILL_FILE} links to ${JSON.stringify(link)}, which does not exist in the skill folder`);
    }
  }
  const uri = uriOf([...dir, SKILL_FILE]);
  const root = uriOf(dir);
  const ordered = [skillMd, ...own.filter((f) => f !== skillMd)];
  const resources = ordered.map((f) => ({ uri: f.uri, digest: f.digest, size: f.size }));
  return { uri, root, frontmatter: parsed.frontmatter, entry: { uri, frontmatter: parsed.frontmatter, resources } };
}

/** A relative link resolved against the skill's folder, or undefined when it climbs out of it. */
function resolveWithin(dir: readonly string[], link: string): string[] | undefined {
  const out = [...dir];
  for (const segment of link.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (out.length === dir.length) return undefined;
      out.pop();
    } else out.push(segment);
  }
  return out;
}

function directoriesOf(
  contents: FolderContents,
  skillDirs: readonly (readonly string[])[],
  files: readonly SkillFile[],
  uriOf: (path: readonly string[]) => string,
  prefix: readonly string[],
): Map<string, DirectoryChild[]> {
  const dirs = new Map<string, DirectoryChild[]>();
  const served = (folder: readonly string[]) =>
    skillDirs.some((d) => d.every((s, i) => folder[i] === s) || folder.every((s, i) => d[i] === s));
  const folders = contents.folders.filter(served);
  // The prefix's own levels (`skill://acme`, `skill://acme/billing`) hold the top folders.
  for (let i = 1; i <= prefix.length; i++) dirs.set(SKILL_SCHEME + prefix.slice(0, i).join('/'), []);
  for (const folder of folders) dirs.set(uriOf(folder), []);
  const parentOf = (uri: string) => uri.slice(0, uri.lastIndexOf('/'));
  for (let i = 2; i <= prefix.length; i++) {
    const uri = SKILL_SCHEME + prefix.slice(0, i).join('/');
    dirs.get(parentOf(uri))!.push({ uri, name: prefix[i - 1]!, mimeType: DIRECTORY_MIME_TYPE });
  }
  for (const folder of folders) {
    const uri = uriOf(folder);
    dirs.get(parentOf(uri))?.push({ uri, name: folder[folder.length - 1]!, mimeType: DIRECTORY_MIME_TYPE });
  }
  for (const f of files) {
    dirs.get(parentOf(f.uri))?.push({ uri: f.uri, name: f.name, mimeType: f.mimeType, size: f.size });
  }
  return dirs;
}
