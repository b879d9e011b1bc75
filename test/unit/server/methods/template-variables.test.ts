/** Template variables arrive percent-decoded (RFC 6570), as docs/decorators-and-schemas.md warns. */
import { ResourceTemplate } from '../../../../src';
import { clients, makeApp } from '../../../helpers/apps';

class Echo {
  @ResourceTemplate({ uriTemplate: 'files://{name}' })
  simple(vars: { name: string }) {
    return JSON.stringify(vars);
  }
  @ResourceTemplate({ uriTemplate: 'tree://{+path}' })
  reserved(vars: { path: string }) {
    return JSON.stringify(vars);
  }
}

test.each(['modern', 'legacy'] as const)('%s: ..%%2F arrives as ../ and {+path} keeps slashes', async (era) => {
  const client = (await clients(makeApp([Echo])))[era];
  const read = async (uri: string) =>
    JSON.parse(((await client.request('resources/read', { uri })).contents as { text: string }[])[0]!.text);
  expect(await read('files://..%2F..%2Fetc%2Fpasswd')).toEqual({ name: '../../etc/passwd' });
  expect(await read('tree://../../etc/passwd')).toEqual({ path: '../../etc/passwd' });
  expect(await read('files://caf%C3%A9')).toEqual({ name: 'café' });
});
