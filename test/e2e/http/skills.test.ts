/**
 * Issue 32, the Skills extension (SEP-2640) end to end over real HTTP: `@Skills` folders read at
 * start-up; the official v2 client's skills API (listSkills / get / read with digest checks) and
 * our ContextClient (both eras) read them; guards of the publishing class hide a skill from a caller
 * like a resource; hostile requests are refused with clear errors and the server keeps serving.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { SkillsClient as OfficialSkills } from '@modelcontextprotocol/client/ext/skills';
import {
  ContextClient,
  ContextServerModule,
  McpApplication,
  SKILLS_EXTENSION,
  Skills,
  UseGuards,
  type CanActivate,
  type ExecutionContext,
} from '../../../src';
import { silentLogger } from '../../../src/server/core/server-logger';
import { serveHttp, type HttpServerHandle } from '../../../src/transports/http';
import { trackProcessFaults } from '../../helpers/http-fixtures';

const root = mkdtempSync(join(tmpdir(), 'omc-skills-e2e-'));
const publicDir = join(root, 'public');
const staffDir = join(root, 'staff');
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0xfe, 0x00, 0x01]);

function write(path: string, content: string | Buffer): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
}
write(
  join(publicDir, 'flight-booking', 'SKILL.md'),
  [
    '---',
    'name: flight-booking',
    'description: Book a flight end to end, seat included',
    'license: MIT',
    'metadata:',
    '  owner: travel-team',
    '---',
    '',
    '# Booking',
    'Read [the fare rules](references/FARES.md) first; the seat map is in [assets](assets/seatmap.png).',
    '',
  ].join('\n'),
);
write(join(publicDir, 'flight-booking', 'references', 'FARES.md'), '# Fares\n\nEconomy is non-refundable.\n');
write(join(publicDir, 'flight-booking', 'assets', 'seatmap.png'), PNG);
write(
  join(staffDir, 'refunds', 'SKILL.md'),
  '---\nname: refunds\ndescription: Refund a booking (staff only)\n---\n\nCheck the fare first.\n',
);

class StaffOnly implements CanActivate {
  canActivate(ctx: ExecutionContext) {
    return ctx.principal?.id === 'staff';
  }
}

@Skills({ directory: publicDir, prefix: 'travel' })
class TravelSkills {}

@Skills({ directory: staffDir, prefix: 'travel' })
@UseGuards(StaffOnly)
class StaffSkills {}

const SKILL = 'skill://travel/flight-booking/SKILL.md';
const REFUNDS = 'skill://travel/refunds/SKILL.md';

let server: HttpServerHandle;
const faults = trackProcessFaults();

beforeAll(async () => {
  const app = McpApplication.create({
    name: 'skills-e2e',
    version: '1.0.0',
    providers: [TravelSkills, StaffSkills],
    modules: [
      ContextServerModule.configure({
        logger: silentLogger,
        authenticate: ({ headers }) => {
          const name = String(headers?.authorization ?? '').replace(/^Bearer /, '');
          return name ? { id: name } : undefined;
        },
      }),
    ],
  });
  server = await serveHttp(app, { port: 0 });
});
afterAll(async () => {
  await server.close({ deadlineMs: 2000 });
  rmSync(root, { recursive: true, force: true });
  faults.stop();
  expect(faults.faults).toEqual([]);
});

const as = (user: string) => ({ authorization: `Bearer ${user}` });
const pinned = { versionNegotiation: { mode: { pin: '2026-07-28' as const } } };

describe('the official v2 client skills API (2026-07-28)', () => {
  let client: ModernClient;
  let skills: OfficialSkills;
  beforeAll(async () => {
    client = new ModernClient({ name: 'v2-skills', version: '1.0.0' }, pinned);
    await client.connect(new ModernTransport(new URL(server.url), { requestInit: { headers: as('guest') } }));
    skills = new OfficialSkills(client);
  });
  afterAll(() => client.close());

  test('lists, gets and reads our skills with digest verification', async () => {
    expect(skills.supported).toBe(true);
    expect(skills.directoryRead).toBe(true);
    const listing = await skills.list();
    expect(listing.invalid).toEqual([]);
    expect(listing.skills.map((s) => s.uri)).toEqual([SKILL]);
    expect(listing).toMatchObject({ ttlMs: expect.any(Number), cacheScope: 'private' });
    const { skill } = await skills.get(SKILL);
    expect(skill.frontmatter).toEqual({
      name: 'flight-booking',
      description: 'Book a flight end to end, seat included',
      license: 'MIT',
      metadata: { owner: 'travel-team' },
    });
    const manifest = await skills.read(skill);
    expect(manifest).toMatchObject({ verified: true, frontmatter: skill.frontmatter });
    expect(manifest.body).toContain('# Booking');
    const fares = await skills.read(skill, 'references/FARES.md');
    expect(fares.text).toBe('# Fares\n\nEconomy is non-refundable.\n');
    const png = await skills.read(skill, 'assets/seatmap.png');
    expect(Buffer.from(png.bytes)).toEqual(PNG);
    const dir = await skills.readDirectory('skill://travel/flight-booking');
    expect(dir.resources.map((r) => [r.name, r.mimeType]).sort()).toEqual([
      ['SKILL.md', 'text/markdown'],
      ['assets', 'inode/directory'],
      ['references', 'inode/directory'],
    ]);
  });

  test('a guarded skill is hidden from a caller its guards refuse, shown to one they let in', async () => {
    await expect(skills.get(REFUNDS)).rejects.toThrow(/No skill is served at skill:\/\/travel\/refunds\/SKILL.md/);
    const staff = new ModernClient({ name: 'v2-staff', version: '1.0.0' }, pinned);
    await staff.connect(new ModernTransport(new URL(server.url), { requestInit: { headers: as('staff') } }));
    try {
      const staffSkills = new OfficialSkills(staff);
      const listing = await staffSkills.list();
      expect(listing.skills.map((s) => s.uri).sort()).toEqual([SKILL, REFUNDS]);
      // Filtered per caller: never cacheable for everyone.
      expect(listing.cacheScope).toBe('private');
      const refunds = listing.skills.find((s) => s.uri === REFUNDS)!;
      expect((await staffSkills.read(refunds)).verified).toBe(true);
    } finally {
      await staff.close();
    }
  });
});

describe.each(['2026-07-28', '2025-11-25'] as const)('ContextClient.skills on %s', (protocolVersion) => {
  let client: ContextClient;
  beforeAll(async () => {
    client = await ContextClient.connect({ url: server.url, headers: as('guest') }, { protocolVersion });
  });
  afterAll(() => client.close());

  test('declared, listed, loaded and verified; files read on demand', async () => {
    expect(client.server.capabilities.extensions).toMatchObject({ [SKILLS_EXTENSION]: { directoryRead: true } });
    const [entry, ...rest] = await client.skills.list();
    expect(rest).toEqual([]);
    const skill = await client.skills.load(entry!);
    expect(skill.frontmatter.name).toBe('flight-booking');
    expect(await skill.readText('references/FARES.md')).toContain('non-refundable');
    expect(Buffer.from(await skill.readFile('assets/seatmap.png'))).toEqual(PNG);
    await expect(skill.readFile('references/OTHER.md')).rejects.toThrow(/OMC_CLIENT_SKILL_UNVERIFIED.*not listed/);
    await expect(skill.readFile('../refunds/SKILL.md')).rejects.toThrow(/OMC_CLIENT_SKILL_UNVERIFIED/);
  });

  test('hostile requests are refused with a clear error, and the server keeps serving', async () => {
    await expect(client.request('skills/get', { uri: 'skill://travel/flight-booking/../refunds/SKILL.md' })).rejects.toThrow(
      /has a \. or \.\. path segment/,
    );
    await expect(client.request('skills/get', { uri: 'skill://travel/%2E%2E/refunds/SKILL.md' })).rejects.toThrow(
      /has a \. or \.\. path segment/,
    );
    await expect(client.request('skills/get', { uri: REFUNDS })).rejects.toThrow(/No skill is served/);
    await expect(client.readResource(REFUNDS)).rejects.toThrow(/not found/i);
    await expect(client.request('resources/directory/read', { uri: SKILL })).rejects.toThrow(/is not a directory resource/);
    await expect(client.request('resources/directory/read', { uri: 'skill://travel/refunds' })).rejects.toThrow(
      /No directory is served/,
    );
    await expect(client.request('skills/get', { uri: 'x'.repeat(100_000) })).rejects.toThrow(/maxUriLength/);
    expect((await client.skills.list()).length).toBe(1);
  });
});
