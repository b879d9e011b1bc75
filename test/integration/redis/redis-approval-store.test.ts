/**
 * RedisApprovalStore against a real redis-server: the ApprovalStore contract, two instances as one
 * fleet (an answer given through one is read, held and completed through the other), and a TTL on
 * every key it writes.
 */
import { randomUUID } from 'node:crypto';
import { RedisApprovalStore, type RedisConnection } from '../../../src/redis';
import { DEFAULT_APPROVAL_LIMITS } from '../../../src/state/approval-store';
import { approvalStoreContract } from '../../helpers/contracts/approval-store';
import { expectEveryKeyExpires, useRedisServer } from './fixture';

const redis = useRedisServer();
let connection: RedisConnection;
beforeAll(async () => {
  connection = await redis.connect();
});

describe('RedisApprovalStore', () => {
  approvalStoreContract(() => new RedisApprovalStore(connection));

  test('two instances: a page put up on one is answered on the other; one holder across both', async () => {
    const prefix = `ap${Date.now()}:`;
    const a = new RedisApprovalStore(await redis.connect({ keyPrefix: prefix }));
    const b = new RedisApprovalStore(await redis.connect({ keyPrefix: prefix }));
    const id = randomUUID();
    const expiresAt = Date.now() + 60_000;
    const flow = { id, principal: 'ann', tool: 'book', argsDigest: 'd', args: { to: 'Oslo' }, expiresAt };
    await a.add(flow, DEFAULT_APPROVAL_LIMITS);
    expect(await a.hold(id, 'call-1')).toBe(true);
    const nonce = randomUUID();
    const request = { method: 'elicitation/create', params: {} };
    await a.addPage(id, { nonce, key: 'confirm', fingerprint: 'fp', request } as never, 32);
    await a.release(id, 'call-1');
    expect(await b.recordAnswer(id, nonce, { action: 'accept', content: { ok: true } })).toBe(true);
    const holds = await Promise.all([a.hold(id, 'call-a'), b.hold(id, 'call-b')]);
    expect(holds.filter(Boolean)).toHaveLength(1);
    const [winner, name] = holds[0] ? [a, 'call-a'] : [b, 'call-b'];
    const answer = { action: 'accept', content: { ok: true } };
    expect((await winner.get(id))?.answers.confirm).toEqual({ fingerprint: 'fp', answer });
    await winner.complete(id, name, { content: [] });
    expect((await (winner === a ? b : a).get(id))?.completed).toEqual({ result: { content: [] } });
  });

  test('every key it writes expires', async () => {
    const c = await redis.connect();
    const s = new RedisApprovalStore(c);
    const id = randomUUID();
    const flow = { tool: 't', argsDigest: 'd', args: {}, expiresAt: Date.now() + 60_000 };
    await s.add({ ...flow, id, principal: 'bo' }, DEFAULT_APPROVAL_LIMITS);
    await s.add({ ...flow, id: randomUUID() }, DEFAULT_APPROVAL_LIMITS);
    await s.hold(id, 'h');
    await s.recordOnce(id, 'k', { value: 1 });
    await expectEveryKeyExpires(c);
  });
});
