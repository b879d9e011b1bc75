/** listen(): 2026 subscriptions/listen and the legacy list_changed stream, as one async iterable. */
import { ContextClient } from '../../../src';
import { fixtureApp } from './fixture-app';

test.each(['2026-07-28', '2025-11-25'] as const)('listen delivers tools/list_changed (%s)', async (protocolVersion) => {
  const app = fixtureApp();
  const client = await ContextClient.connect({ app }, { protocolVersion });
  const sub = await client.listen({ toolsListChanged: true });
  expect(await sub.acknowledged).toMatchObject({ toolsListChanged: true });
  app.addTool({ name: 'late', description: 'added later', handler: () => 'late' });
  const first = await sub.next();
  expect(first.value).toMatchObject({ method: 'notifications/tools/list_changed' });
  await sub.close();
  await client.close();
});
