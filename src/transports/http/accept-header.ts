/** Whether a POST's Accept header takes a JSON or SSE reply (both eras require one of them). */

/** Clients send the same Accept header on every request: decide once per distinct value. */
const acceptDecisions = new Map<string, boolean>();
let lastAccept: string | undefined;
let lastDecision = false;
export function acceptsReply(accept: string | undefined): boolean {
  if (accept === undefined) return false;
  // The value the previous request sent, compared before the map: a fresh header string has no hash yet.
  if (accept === lastAccept) return lastDecision;
  let ok = acceptDecisions.get(accept);
  if (ok === undefined) {
    ok = parseAccept(accept);
    if (acceptDecisions.size >= 256) acceptDecisions.clear();
    acceptDecisions.set(accept, ok);
  }
  lastAccept = accept;
  lastDecision = ok;
  return ok;
}

function parseAccept(accept: string): boolean {
  return accept.split(',').some((part) => {
    const type = part.split(';')[0]!.trim().toLowerCase();
    return (
      type === 'application/json' ||
      type === 'text/event-stream' ||
      type === 'application/*' ||
      type === 'text/*' ||
      type === '*/*'
    );
  });
}
