/** A server's JSON-RPC error reaches the caller as a typed ProtocolError with the status it came with. */
import { ContextClient, ProtocolError } from '../../../src';
import {
  HeaderMismatchError,
  MethodNotFoundError,
  MissingCapabilityError,
  ServerError,
  serverErrorOf,
  UnsupportedVersionError,
} from '../../../src/client/server-errors';
import { complete, FakeTransport } from './fake-transport';

test('each code the client acts on has its class; any other code is a plain ServerError', () => {
  const cases: Array<[number, abstract new (...args: never[]) => ProtocolError]> = [
    [-32601, MethodNotFoundError],
    [-32020, HeaderMismatchError],
    [-32021, MissingCapabilityError],
    [-32022, UnsupportedVersionError],
    [-32602, ServerError],
  ];
  for (const [code, Class] of cases) {
    const error = serverErrorOf({ code, message: 'm', data: { d: 1 } }, 400);
    expect(error).toBeInstanceOf(Class);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({ name: 'ProtocolError', code, message: 'm', data: { d: 1 }, httpStatus: 400 });
  }
  expect(serverErrorOf({ code: -32602, message: 'm' }).constructor).toBe(ServerError);
});

test('the subclasses read their data', () => {
  const version = serverErrorOf({ code: -32022, message: 'v', data: { supported: ['2026-07-28', 3] } });
  expect((version as UnsupportedVersionError).supported).toEqual(['2026-07-28']);
  const capability = serverErrorOf({ code: -32021, message: 'c', data: { requiredCapabilities: { sampling: {} } } });
  expect((capability as MissingCapabilityError).requiredCapabilities).toEqual({ sampling: {} });
  expect((serverErrorOf({ code: -32021, message: 'c' }) as MissingCapabilityError).requiredCapabilities).toEqual({});
});

test('a call rejects with the typed error', async () => {
  const transport = new FakeTransport((r) =>
    r.method === 'tools/call'
      ? {
          error: { code: -32021, message: 'needs sampling', data: { requiredCapabilities: { sampling: {} } } },
          httpStatus: 400,
        }
      : complete(),
  );
  const client = await ContextClient.connect({ transport }, { protocolVersion: '2026-07-28' });
  const error = await client.callTool('t').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(MissingCapabilityError);
  expect(error).toMatchObject({ code: -32021, httpStatus: 400, requiredCapabilities: { sampling: {} } });
  await client.close();
});
