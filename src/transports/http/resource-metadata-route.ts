/**
 * The protected resource metadata route (RFC 9728) of an endpoint whose server is an OAuth
 * resource: GET (or HEAD) at the path-suffixed and the root well-known paths. The document is public:
 * Host is checked (DNS rebinding), any Origin may read it (browser-based clients discover from it).
 */
import type { ResourceServer } from '../../server/core/resource-server';
import { rejectHostOrOrigin, type HostPolicy } from './host-guard';
import { header, type HeaderBag, type ResponseSink } from './http-exchange';

const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
  'Access-Control-Allow-Headers': 'mcp-protocol-version',
};

/** Answers and returns true when `path` is a metadata path of `rs`; false otherwise (nothing sent). */
export function answerResourceMetadata(
  rs: ResourceServer | undefined,
  policy: HostPolicy,
  method: string,
  path: string,
  headers: HeaderBag,
  res: ResponseSink,
): boolean {
  if (!rs || !rs.metadataPaths.includes(path)) return false;
  const host = header(headers, 'host');
  if (rejectHostOrOrigin(host === undefined ? {} : { host }, policy)) {
    res.send(403, { 'Content-Type': 'text/plain' }, 'Forbidden');
    return true;
  }
  if (method === 'OPTIONS') {
    res.send(204, CORS);
    return true;
  }
  if (method !== 'GET' && method !== 'HEAD') {
    res.send(405, { Allow: 'GET, HEAD, OPTIONS' });
    return true;
  }
  res.send(
    200,
    { ...CORS, 'Content-Type': 'application/json', 'Cache-Control': 'max-age=3600' },
    method === 'HEAD' ? undefined : rs.metadataBody,
  );
  return true;
}
