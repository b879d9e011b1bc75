// Before any load: each server answers once, correctly; that answer becomes the expected body.
import { checkResponse } from './check.mjs';
import { legacyBody, legacyHeaders, modernBody, modernHeaders, openLegacySession, post } from './wire.mjs';

export async function prepare(spec, port) {
  switch (spec.kind) {
    case 'call': return verified(spec, await post(port, { ...modernHeaders('tools/call', spec.call.name), ...spec.headers }, modernBody('tools/call', spec.call)));
    case 'list': return verified(spec, await post(port, modernHeaders('tools/list'), modernBody('tools/list')));
    case 'legacy': return verified(spec, await post(port, legacyHeaders(), legacyBody('tools/call', spec.call)));
    case 'session': {
      const sessionId = await openLegacySession(port);
      const first = verified(spec, await post(port, legacyHeaders(sessionId), legacyBody('tools/call', spec.call, 'first')));
      return { ...first, sessionId };
    }
    case 'mrtr': return { body: '' }; // every flow is checked round by round under load
    default: throw new Error(`unknown kind ${spec.kind}`);
  }
}

function verified(spec, r) {
  checkResponse(spec, r.status, r.text);
  return { body: r.text };
}
