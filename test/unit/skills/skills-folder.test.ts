/**
 * `@Skills` at start-up: a well-formed folder becomes entries with correct digests and directory
 * listings; anything malformed (frontmatter, name, missing or escaping link, oversized file, symlink,
 * stray file, name clash, bad prefix) fails McpApplication.create with OMC_INVALID_SKILL naming it.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { McpApplication, Skills, type SkillsOptions } from '../../../src';
import { dispatcherOf } from '../../../src/app/dispatcher-of';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'omc-skills-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(rel: string, content: string | Buffer): string {
  const path = join(root, rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  return path;
}
const skillMd = (name: string, body = '', extra = '') =>
  `---\nname: ${name}\ndescription: Does ${name} things\n${extra}---\n\n${body}\n`;

function appWith(...folders: SkillsOptions[]): McpApplication {
  const providers = folders.map((options, i) => {
    @Skills(options)
    class Folder {}
    Object.defineProperty(Folder, 'name', { value: `Folder${i}` });
    return Folder;
  });
  return McpApplication.create({ name: 't', version: '1', providers });
}
const refused = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('start-up did not fail');
};

test('a folder of skills becomes entries with digests, sizes and directories', () => {
  const text = skillMd('seat-map', 'See [the legend](refs/LEGEND.md).', 'metadata:\n  version: "1"\n');
  write('seat-map/SKILL.md', text);
  write('seat-map/refs/LEGEND.md', 'X = taken\n');
  const registry = dispatcherOf(appWith({ directory: root, prefix: 'flights' })).core.registry;
  const skill = registry.skill('skill://flights/seat-map/SKILL.md')!;
  const sha = (s: string) => `sha256:${createHash('sha256').update(s).digest('hex')}`;
  expect(skill.entry).toEqual({
    uri: 'skill://flights/seat-map/SKILL.md',
    frontmatter: { name: 'seat-map', description: 'Does seat-map things', metadata: { version: '1' } },
    resources: [
      { uri: 'skill://flights/seat-map/SKILL.md', digest: sha(text), size: Buffer.byteLength(text) },
      { uri: 'skill://flights/seat-map/refs/LEGEND.md', digest: sha('X = taken\n'), size: 10 },
    ],
  });
  expect(registry.directory('skill://flights')![0]!.children).toEqual([
    { uri: 'skill://flights/seat-map', name: 'seat-map', mimeType: 'inode/directory' },
  ]);
  expect(registry.directory('skill://flights/seat-map/refs')![0]!.children).toEqual([
    { uri: 'skill://flights/seat-map/refs/LEGEND.md', name: 'LEGEND.md', mimeType: 'text/markdown', size: 10 },
  ]);
  expect(registry.resource('skill://flights/seat-map/SKILL.md')!.descriptor).toMatchObject({
    name: 'seat-map',
    description: 'Does seat-map things',
    mimeType: 'text/markdown',
  });
});

test.each([
  ['no frontmatter', 'seat-map/SKILL.md', '# just a title\n', /seat-map SKILL.md does not begin with a --- delimited YAML frontmatter block/],
  ['no description', 'seat-map/SKILL.md', '---\nname: seat-map\n---\n', /seat-map SKILL.md has no frontmatter `description`/],
  ['invalid YAML', 'seat-map/SKILL.md', '---\nname: [unclosed\n---\n', /seat-map SKILL.md has frontmatter that is not valid YAML/],
  ['a non-JSON value', 'seat-map/SKILL.md', skillMd('seat-map', '', 'limit: .inf\n'), /not plain JSON data at frontmatter.limit/],
  ['a name that breaks the rule', 'Seat_Map/SKILL.md', skillMd('Seat_Map'), /breaks the Agent Skills naming rule/],
  ['a name unlike its folder', 'seat-map/SKILL.md', skillMd('seats'), /names the skill "seats", but its folder is "seat-map"/],
  ['a link to a missing file', 'seat-map/SKILL.md', skillMd('seat-map', '[x](refs/GONE.md)'), /links to "refs\/GONE.md", which does not exist/],
  ['a link out of the skill', 'seat-map/SKILL.md', skillMd('seat-map', '[x](../other/SKILL.md)'), /links to "..\/other\/SKILL.md", which leaves the skill folder/],
])('start-up refuses a skill with %s, naming it', (_label, file, content, message) => {
  write(file, content);
  const text = refused(() => appWith({ directory: root }));
  expect(text).toContain('[OMC_INVALID_SKILL]');
  expect(text).toMatch(message);
});

test('start-up refuses an oversized file before reading it', () => {
  write('seat-map/SKILL.md', skillMd('seat-map'));
  write('seat-map/big.bin', Buffer.alloc(2048));
  expect(refused(() => appWith({ directory: root, maxFileBytes: 1024 }))).toMatch(
    /OMC_INVALID_SKILL.*seat-map\/big.bin is 2048 bytes, over the 1024-byte cap \(maxFileBytes\)/,
  );
});

test('start-up refuses a folder with more files than maxFiles', () => {
  write('seat-map/SKILL.md', skillMd('seat-map'));
  for (let i = 0; i < 5; i++) write(`seat-map/f${i}.md`, 'x');
  expect(refused(() => appWith({ directory: root, maxFiles: 3 }))).toMatch(/holds more than 3 files \(maxFiles\)/);
});

test('start-up refuses a folder over maxBytes in all, naming the file that crosses it', () => {
  write('seat-map/SKILL.md', skillMd('seat-map'));
  write('seat-map/a.bin', Buffer.alloc(600));
  write('seat-map/b.bin', Buffer.alloc(600));
  expect(refused(() => appWith({ directory: root, maxBytes: 1000 }))).toMatch(
    /OMC_INVALID_SKILL.*seat-map\/b.bin takes the folder over its total cap \(maxBytes\)/,
  );
});

test('start-up refuses a symbolic link inside a skill', () => {
  write('seat-map/SKILL.md', skillMd('seat-map'));
  symlinkSync('/etc/passwd', join(root, 'seat-map', 'passwd'));
  expect(refused(() => appWith({ directory: root }))).toMatch(/seat-map\/passwd is a symbolic link/);
});

test('start-up refuses a file outside every skill folder', () => {
  write('seat-map/SKILL.md', skillMd('seat-map'));
  write('NOTES.md', 'stray');
  expect(refused(() => appWith({ directory: root }))).toMatch(/NOTES.md is not inside any skill folder/);
});

test('start-up refuses two skills with one name, naming both', () => {
  write('a/seat-map/SKILL.md', skillMd('seat-map'));
  write('b/seat-map/SKILL.md', skillMd('seat-map'));
  const both = () => appWith({ directory: join(root, 'a') }, { directory: join(root, 'b'), prefix: 'other' });
  expect(refused(both)).toMatch(
    /Skill name "seat-map" is published twice: skill:\/\/seat-map\/SKILL.md .* and skill:\/\/other\/seat-map\/SKILL.md/,
  );
});

test('start-up refuses a prefix with a .. segment and a missing folder', () => {
  write('seat-map/SKILL.md', skillMd('seat-map'));
  expect(refused(() => appWith({ directory: root, prefix: 'a/../b' }))).toMatch(/has prefix "a\/..\/b"/);
  expect(refused(() => appWith({ directory: join(root, 'nope') }))).toMatch(/OMC_INVALID_SKILL.*cannot be read.*ENOENT/);
});
