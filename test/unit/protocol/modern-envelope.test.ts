/** The 2026-07-28 envelope check: its faults, in the order the spec gives them. */
import { checkEnvelope } from '../../../src/protocol/modern-envelope';

const VERSION = 'io.modelcontextprotocol/protocolVersion';
const CAPS = 'io.modelcontextprotocol/clientCapabilities';

test('a whole envelope hands back its _meta', () => {
  const meta = { [VERSION]: '2026-07-28', [CAPS]: {} };
  expect(checkEnvelope({ _meta: meta })).toEqual({ kind: 'whole', meta });
});

test('a missing field is named; the version is checked before the capabilities', () => {
  expect(checkEnvelope(undefined)).toEqual({
    kind: 'missing',
    message: 'Invalid request metadata: params._meta is required',
  });
  expect(checkEnvelope({ _meta: [] })).toMatchObject({ kind: 'missing' });
  expect(checkEnvelope({ _meta: { [CAPS]: {} } })).toEqual({
    kind: 'missing',
    message: `Invalid request metadata: _meta["${VERSION}"] is required`,
  });
  expect(checkEnvelope({ _meta: { [VERSION]: '2099-01-01' } })).toEqual({ kind: 'unsupported', version: '2099-01-01' });
  expect(checkEnvelope({ _meta: { [VERSION]: '2026-07-28' } })).toMatchObject({
    kind: 'missing',
    message: expect.stringContaining(CAPS),
  });
});
