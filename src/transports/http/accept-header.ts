/** Whether a POST's Accept header takes a JSON or SSE reply (both eras require one of them). */

/** Clients send the same Accept header on every request: decide once per distinct value. */
const acceptDecisions = new Map<string, boolean>();
export function acceptsReply(accept: string | undefined): boolean {
  if (accept === undefined) return false;
  let ok = acceptDecisions.get(accept);
  if (ok === undefined) {
    ok = parseAccept(accept);
    if (acceptDecisions.size >= 256) acceptDecisions.clear();
    acceptDecisions.set(accept, ok);
  }
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
