/**
 * `@Skills` folders → definitions: each skill, each file as a `skill://` resource (SKILL.md named
 * and described from its frontmatter), each folder as a directory. Read and checked at start-up;
 * a malformed skill fails it with OMC_INVALID_SKILL naming the skill and the file.
 */
import { resolve } from 'node:path';
import { FrameworkError } from '../errors/framework-error';
import type { JsonObject } from '../protocol/jsonrpc';
import { SKILL_FILE, SKILL_LIMITS } from '../protocol/skills';
import type { SkillsOptions } from '../metadata/options';
import { MetadataStore } from '../metadata/store';
import { readSkillFolder } from '../skills/read-skill-folder';
import { buildSkillSet, prefixSegments, type SkillFile } from '../skills/skill-set';
import { buildResource } from './build-definitions';
import type { DirectoryDefinition, HandlerSource, ResourceDefinition, SkillDefinition } from './definitions';
import { deepFreeze } from './objects';

export interface BuiltSkills {
  readonly skills: SkillDefinition[];
  readonly resources: ResourceDefinition[];
  readonly directories: DirectoryDefinition[];
}

const DEFAULT_MAX_FILE_BYTES = 4 * 1024 * 1024;
const DEFAULT_MAX_FILES = 4096;
const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

export function buildSkills(cls: Function): BuiltSkills {
  const built: BuiltSkills = { skills: [], resources: [], directories: [] };
  for (const options of MetadataStore.skills(cls)) addFolder(cls, options, built);
  return built;
}

function addFolder(cls: Function, options: SkillsOptions, built: BuiltSkills): void {
  const owner = `${cls.name} (@Skills)`;
  if (typeof options.directory !== 'string' || options.directory.length === 0) {
    throw new FrameworkError('OMC_INVALID_DEFINITION', `${owner}: @Skills needs a directory.`);
  }
  const maxFileBytes = positive(owner, 'maxFileBytes', options.maxFileBytes, DEFAULT_MAX_FILE_BYTES);
  const maxFiles = positive(owner, 'maxFiles', options.maxFiles, DEFAULT_MAX_FILES);
  const maxBytes = positive(owner, 'maxBytes', options.maxBytes, DEFAULT_MAX_BYTES);
  const folder = resolve(options.directory);
  const prefix = prefixSegments(options.prefix, `folder ${folder}`);
  const contents = readSkillFolder(folder, { maxFileBytes, maxFiles, maxBytes });
  const set = buildSkillSet(folder, contents, prefix, {
    maxSkillFiles: SKILL_LIMITS.files,
    maxSkillBytes: SKILL_LIMITS.bytes,
  });
  const guardedBy: HandlerSource = { kind: 'function', fn: () => undefined, cls };
  const skillMds = new Map(set.skills.map((s) => [s.uri, s]));
  for (const file of set.files) {
    const skill = skillMds.get(file.uri);
    built.resources.push(
      buildResource(
        {
          uri: file.uri,
          name: skill ? skill.frontmatter.name : file.name,
          ...(skill ? { description: skill.frontmatter.description } : {}),
          mimeType: file.mimeType,
          size: file.size,
          ...(options.cache ? { cache: options.cache } : {}),
        },
        owner,
        { kind: 'function', fn: () => contentsOf(file), cls },
      ),
    );
  }
  for (const skill of set.skills) {
    built.skills.push(
      Object.freeze({
        kind: 'skill',
        uri: skill.uri,
        root: skill.root,
        name: skill.frontmatter.name,
        entry: deepFreeze(skill.entry),
        owner: `${owner} ${folder}/${skill.root.slice(skill.root.indexOf('://') + 3)}/${SKILL_FILE}`,
        source: guardedBy,
      }),
    );
  }
  for (const [uri, children] of set.directories) {
    built.directories.push(
      Object.freeze({ kind: 'directory', uri, children: deepFreeze(children), owner, source: guardedBy }),
    );
  }
}

/** What resources/read returns: UTF-8 files as text (the same bytes the digest covers), others as base64. */
function contentsOf(file: SkillFile): JsonObject {
  const body =
    file.text === undefined ? { blob: Buffer.from(file.bytes).toString('base64') } : { text: file.text };
  return { contents: [{ uri: file.uri, mimeType: file.mimeType, ...body }] };
}

function positive(owner: string, key: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new FrameworkError('OMC_INVALID_DEFINITION', `${owner}: @Skills ${key} must be a positive integer.`);
  }
  return value;
}
