/**
 * The Skills extension on the client side (SEP-2640): list and get entries, then load a skill the
 * way a host must: SKILL.md fetched only when loaded, every file checked against the held entry
 * (size, then SHA-256 digest), the frontmatter compared field by field, unlisted files refused.
 * Nothing unverified is returned: a mismatch throws OMC_CLIENT_SKILL_UNVERIFIED.
 */
import { FrameworkError } from '../errors/framework-error';
import type { JsonObject } from '../protocol/jsonrpc';
import {
  DIRECTORY_READ,
  SKILLS_EXTENSION,
  SKILLS_GET,
  SKILLS_LIST,
  skillRootOf,
  type Skill,
  type SkillFrontmatter,
  type SkillResource,
} from '../protocol/skills';
import type { Resource } from '../protocol/listings';
import type { ReadResourceResult } from '../protocol/types';
import { skillDigest } from '../skills/digest';
import { entryProblem } from '../skills/entry-check';
import { firstDifference, parseFrontmatter } from '../skills/frontmatter';

/** What the skills API needs of a client. */
export interface SkillsPeer {
  readonly server: { capabilities: JsonObject };
  request(method: string, params?: JsonObject): Promise<JsonObject>;
  readResource(uri: string): Promise<ReadResourceResult>;
}

/** A verified skill: its SKILL.md text, and reads of its other files checked against the same entry. */
export interface LoadedSkill {
  readonly entry: Skill;
  readonly frontmatter: SkillFrontmatter;
  /** SKILL.md as served, verified. */
  readonly text: string;
  /** A file of the skill, by path relative to its root (`references/FORMS.md`) or by URI; verified. */
  readFile(pathOrUri: string): Promise<Uint8Array>;
  /** The same, decoded as UTF-8. */
  readText(pathOrUri: string): Promise<string>;
}

export interface LoadOptions {
  /** Load a skill whose entry says `resources: "dynamic"` (nothing to verify its files against). Default false. */
  allowDynamic?: boolean;
}

export class SkillsClient {
  constructor(private readonly peer: SkillsPeer) {}

  /** Whether the server declared the extension (the methods are called only then). */
  get supported(): boolean {
    return this.settings() !== undefined;
  }
  /** Whether the server serves `resources/directory/read`. */
  get directoryRead(): boolean {
    return this.settings()?.directoryRead === true;
  }

  /** Every entry the server lists (all pages); an entry a host must not load is refused with its reason. */
  async list(): Promise<Skill[]> {
    this.require();
    const skills: Skill[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    do {
      const page = await this.peer.request(SKILLS_LIST, cursor === undefined ? {} : { cursor });
      const entries = Array.isArray(page.skills) ? page.skills : [];
      for (const e of entries) skills.push(checked(e, 'skills/list'));
      cursor = typeof page.nextCursor === 'string' && page.nextCursor !== '' ? page.nextCursor : undefined;
      if (cursor !== undefined && seen.has(cursor)) break;
      if (cursor !== undefined) seen.add(cursor);
    } while (cursor !== undefined);
    return skills;
  }

  /** One skill's entry by its SKILL.md URI (listed or not). */
  async get(uri: string): Promise<Skill> {
    this.require();
    const result = await this.peer.request(SKILLS_GET, { uri });
    const entry = checked(result.skill, 'skills/get');
    if (entry.uri !== uri) throw unverified(`skills/get for ${uri} answered for ${entry.uri}`);
    return entry;
  }

  /**
   * Loads a skill from an entry (or its URI: the entry is fetched with skills/get first): reads
   * SKILL.md and verifies it against the entry. Other files are read only when asked for.
   */
  async load(skill: Skill | string, options: LoadOptions = {}): Promise<LoadedSkill> {
    const entry = typeof skill === 'string' ? await this.get(skill) : checked(skill, 'the entry given');
    if (entry.resources === 'dynamic' && !options.allowDynamic) {
      throw unverified(`${entry.uri} is a dynamic skill (no digests to verify it by); pass allowDynamic to load it`);
    }
    const text = new TextDecoder().decode(await this.verifiedRead(entry, entry.uri));
    const parsed = parseFrontmatter(text);
    if (!parsed.ok) throw unverified(`${entry.uri} ${parsed.problem}`);
    const differs = firstDifference(parsed.frontmatter, entry.frontmatter);
    if (differs !== undefined) {
      throw unverified(`${entry.uri}: the frontmatter field ${JSON.stringify(differs)} differs from the entry's`);
    }
    const root = skillRootOf(entry.uri)!;
    const readFile = (pathOrUri: string) => {
      const uri = pathOrUri.includes('://') ? pathOrUri : `${root}/${pathOrUri.replace(/^\.\//, '')}`;
      return this.verifiedRead(entry, uri);
    };
    return Object.freeze({
      entry,
      frontmatter: parsed.frontmatter,
      text,
      readFile,
      readText: async (p: string) => new TextDecoder().decode(await readFile(p)),
    });
  }

  /** The direct children of a directory resource (only on a server that declared directoryRead). */
  async readDirectory(uri: string): Promise<Resource[]> {
    this.require();
    if (!this.directoryRead) {
      throw new FrameworkError('OMC_CLIENT_SKILL_UNVERIFIED', `The server did not declare directoryRead; ${DIRECTORY_READ} is not called.`);
    }
    const out: Resource[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.peer.request(DIRECTORY_READ, cursor === undefined ? { uri } : { uri, cursor });
      out.push(...((Array.isArray(page.resources) ? page.resources : []) as Resource[]));
      cursor = typeof page.nextCursor === 'string' && page.nextCursor !== '' ? page.nextCursor : undefined;
    } while (cursor !== undefined && out.length < 100_000);
    return out;
  }

  /** A file's bytes, checked against the entry: listed, then size, then digest. */
  private async verifiedRead(entry: Skill, uri: string): Promise<Uint8Array> {
    const root = skillRootOf(entry.uri)!;
    if (uri !== entry.uri && !uri.startsWith(`${root}/`)) throw unverified(`${uri} is not a file of ${entry.uri}`);
    if (uri.slice(root.length).split('/').some((s) => s === '..' || s === '.')) {
      throw unverified(`${uri} has a . or .. segment`);
    }
    const listed: SkillResource | undefined =
      entry.resources === 'dynamic' ? undefined : entry.resources.find((r) => r.uri === uri);
    if (entry.resources !== 'dynamic' && !listed) throw unverified(`${uri} is not listed in the entry of ${entry.uri}`);
    const bytes = bytesOf(await this.peer.readResource(uri), uri);
    if (listed) {
      if (bytes.byteLength !== listed.size) {
        throw unverified(`${uri} is ${bytes.byteLength} bytes, the entry says ${listed.size}`);
      }
      if (skillDigest(bytes) !== listed.digest) throw unverified(`${uri} does not match its digest ${listed.digest}`);
    }
    return bytes;
  }

  private settings(): JsonObject | undefined {
    const ext = this.peer.server.capabilities.extensions;
    const value = typeof ext === 'object' && ext !== null ? (ext as JsonObject)[SKILLS_EXTENSION] : undefined;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : undefined;
  }

  private require(): void {
    if (!this.supported) {
      throw new FrameworkError('OMC_CLIENT_SKILL_UNVERIFIED', `The server did not declare ${SKILLS_EXTENSION}.`);
    }
  }
}

function checked(entry: unknown, from: string): Skill {
  const problem = entryProblem(entry);
  if (problem) throw unverified(`a skill entry from ${from} ${problem}`);
  return entry as Skill;
}

function bytesOf(result: ReadResourceResult, uri: string): Uint8Array {
  const content = (result.contents ?? []).find((c) => c.uri === uri) ?? result.contents?.[0];
  if (content && 'text' in content && typeof content.text === 'string') return new TextEncoder().encode(content.text);
  if (content && 'blob' in content && typeof content.blob === 'string') return Buffer.from(content.blob, 'base64');
  throw unverified(`resources/read of ${uri} returned no content`);
}

function unverified(detail: string): FrameworkError {
  return new FrameworkError('OMC_CLIENT_SKILL_UNVERIFIED', `Skill not verified: ${detail}.`);
}
