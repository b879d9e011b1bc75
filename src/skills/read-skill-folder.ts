/**
 * Reads a skills folder at start-up, bounded: every regular file under it (dot-files skipped), each
 * at most `maxFileBytes`, at most `maxFiles` and `maxBytes` in all. A symlink or any other special file is refused
 * by name: a skill folder is published as it is on disk, never through a link out of it.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { invalidSkill } from './skill-errors';

export interface FolderFile {
  /** Path segments below the root. */
  readonly path: readonly string[];
  readonly bytes: Uint8Array;
}

export interface FolderLimits {
  readonly maxFileBytes: number;
  readonly maxFiles: number;
  /** All files together: the folder is held in memory. */
  readonly maxBytes: number;
}

export interface FolderContents {
  readonly files: readonly FolderFile[];
  /** Every folder below the root (path segments), the root itself excluded. */
  readonly folders: readonly (readonly string[])[];
}

export function readSkillFolder(root: string, limits: FolderLimits): FolderContents {
  const rootStat = statOrRefuse(root, root);
  if (!rootStat.isDirectory()) throw invalidSkill(`folder ${root}`, 'is not a directory');
  const files: FolderFile[] = [];
  const folders: string[][] = [];
  let total = 0;
  const walk = (segments: string[]) => {
    const dir = join(root, ...segments);
    for (const name of readdirSync(dir).sort()) {
      if (name.startsWith('.')) continue;
      const path = [...segments, name];
      const full = join(dir, name);
      const stat = statOrRefuse(full, root);
      if (stat.isSymbolicLink()) throw invalidSkill(`file ${full}`, 'is a symbolic link (skills are served from regular files only)');
      if (stat.isDirectory()) {
        folders.push(path);
        walk(path);
      } else if (stat.isFile()) {
        if (files.length >= limits.maxFiles) {
          throw invalidSkill(`folder ${root}`, `holds more than ${limits.maxFiles} files (maxFiles)`);
        }
        const bytes = readBounded(full, Math.min(limits.maxFileBytes, limits.maxBytes - total), limits.maxFileBytes);
        total += bytes.byteLength;
        files.push({ path, bytes });
      } else {
        throw invalidSkill(`file ${full}`, 'is not a regular file');
      }
    }
  };
  walk([]);
  return { files, folders };
}

function statOrRefuse(path: string, root: string) {
  try {
    return lstatSync(path);
  } catch (e) {
    throw invalidSkill(`folder ${root}`, `cannot be read at ${path} (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
}

/** The file's bytes, refused before reading when it is over the cap (checked on the open descriptor). */
function readBounded(path: string, max: number, maxFileBytes: number): Uint8Array {
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  try {
    const { size } = fstatSync(fd);
    if (size > maxFileBytes) {
      throw invalidSkill(`file ${path}`, `is ${size} bytes, over the ${maxFileBytes}-byte cap (maxFileBytes)`);
    }
    if (size > max) throw invalidSkill(`file ${path}`, 'takes the folder over its total cap (maxBytes)');
    const bytes = Buffer.alloc(size);
    let read = 0;
    while (read < size) {
      const n = readSync(fd, bytes, read, size - read, read);
      if (n === 0) break;
      read += n;
    }
    return new Uint8Array(bytes.buffer, bytes.byteOffset, read);
  } finally {
    closeSync(fd);
  }
}
