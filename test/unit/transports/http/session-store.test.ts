/** SessionStore: a full pool evicts its least recently used session idle long enough, never one in use. */
import { InMemoryEventStore } from '../../../../src/transports/http/event-store';
import { HttpSession } from '../../../../src/transports/http/http-session';
import { SessionStore, type SessionEviction, type SessionLimits } from '../../../../src/transports/http/session-store';

const stores: SessionStore[] = [];
afterEach(() => stores.splice(0).forEach((s) => s.closeAll('test over')));

function store(limits: Partial<SessionLimits> = {}): { sessions: SessionStore; evicted: SessionEviction[] } {
  const evicted: SessionEviction[] = [];
  const sessions = new SessionStore(
    {
      maxSessions: 10,
      maxSessionsPerPrincipal: 2,
      maxAnonymousSessions: 3,
      idleTimeoutMs: 3_600_000,
      evictableAfterMs: 1000,
      onEvicted: (e) => evicted.push(e),
      ...limits,
    },
    new InMemoryEventStore(),
  );
  stores.push(sessions);
  return { sessions, evicted };
}

const open = (s: SessionStore, principal?: string) => {
  const made = s.create(principal);
  if (!(made instanceof HttpSession)) throw new Error(`refused: ${JSON.stringify(made)}`);
  return made;
};

/** Makes a session look last used `agoMs` ago. */
const usedAgo = (session: HttpSession, agoMs: number) => {
  session.lastSeen = Date.now() - agoMs;
};

test('a full anonymous bucket evicts its least recently used idle session and tells onEvicted once', () => {
  const { sessions, evicted } = store();
  const [a, b, c] = [open(sessions), open(sessions), open(sessions)];
  usedAgo(a, 5000);
  usedAgo(b, 9000); // least recently used
  usedAgo(c, 2000);
  const d = open(sessions);
  expect(sessions.get(b.id, undefined)).toBeUndefined();
  expect(b.isClosed).toBe(true);
  expect([a, c, d].every((s) => sessions.get(s.id, undefined) === s)).toBe(true);
  expect(evicted).toHaveLength(1);
  expect(evicted[0]).toMatchObject({ pool: 'anonymous', sessionId: b.id });
  expect(evicted[0]!.idleMs).toBeGreaterThanOrEqual(9000);
  expect(evicted[0]!.ageMs).toBeGreaterThanOrEqual(0);
});

test('a session with a request in flight or an open GET stream is never evicted, however old', () => {
  const { sessions, evicted } = store();
  const [a, b, c] = [open(sessions), open(sessions), open(sessions)];
  usedAgo(a, 60_000);
  usedAgo(b, 50_000);
  usedAgo(c, 40_000);
  a.inflight.set(1, new AbortController());
  b.getStream = { detached: false } as HttpSession['getStream'];
  open(sessions);
  expect(evicted.map((e) => e.sessionId)).toEqual([c.id]);
  // Nothing idle left but the newcomer (too young): refused until it may be evictable.
  const refused = sessions.create(undefined);
  expect(refused).toMatchObject({ pool: 'anonymous' });
  expect((refused as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(0);
  expect((refused as { retryAfterMs: number }).retryAfterMs).toBeLessThanOrEqual(1000);
});

test('all busy: the refusal asks to come back after the minimum idle age (at least a second)', () => {
  const { sessions } = store({ maxAnonymousSessions: 1, evictableAfterMs: 0 });
  const a = open(sessions);
  a.inflight.set(1, new AbortController());
  expect(sessions.create(undefined)).toEqual({ pool: 'anonymous', retryAfterMs: 1000 });
});

test("a principal's full share evicts only that principal's sessions", () => {
  const { sessions, evicted } = store();
  const anon = open(sessions);
  const bob = open(sessions, 'bob');
  const [m1, m2] = [open(sessions, 'mallory'), open(sessions, 'mallory')];
  for (const s of [anon, bob]) usedAgo(s, 60_000);
  usedAgo(m1, 3000);
  usedAgo(m2, 2000);
  open(sessions, 'mallory');
  expect(evicted).toEqual([expect.objectContaining({ pool: 'principal', principalId: 'mallory', sessionId: m1.id })]);
  expect(sessions.get(anon.id, undefined)).toBe(anon);
  expect(sessions.get(bob.id, 'bob')).toBe(bob);
});

test("the server's full pool evicts the least recently used idle session of anyone", () => {
  const { sessions, evicted } = store({ maxSessions: 3 });
  const alice = open(sessions, 'alice');
  const anon = open(sessions);
  const bob = open(sessions, 'bob');
  usedAgo(alice, 4000);
  usedAgo(anon, 8000);
  usedAgo(bob, 2000);
  open(sessions, 'carol');
  expect(evicted).toEqual([expect.objectContaining({ pool: 'server', sessionId: anon.id })]);
  expect(sessions.size).toBe(3);
});

test('a fleet-wide room: this instance evicts its own idle session of the pool and waits for its slot to be back', async () => {
  const { sessions } = store();
  let released = false;
  const slot = {
    release: () =>
      new Promise<void>((resolve) =>
        setImmediate(() => {
          released = true;
          resolve();
        }),
      ),
  };
  const made = sessions.create(undefined, slot);
  usedAgo(made as HttpSession, 5000);
  expect(await sessions.makeFleetRoom('anonymous', undefined)).toBeUndefined();
  expect(released).toBe(true);
  expect(await sessions.makeFleetRoom('anonymous', undefined)).toMatchObject({ pool: 'anonymous' });
});
