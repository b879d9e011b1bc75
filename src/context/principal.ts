/** Who is calling, as established by the server's authentication hook. `id` binds sessions and state. */
export interface Principal {
  readonly id: string;
  readonly [claim: string]: unknown;
}

/**
 * A principal id that cannot collide across sources or kinds: `<kind>:<subject>@<issuer>`, kind and
 * subject percent-encoded (so neither can forge a `:` or `@`; the issuer is all that follows the
 * first `@`). A user whose `sub` is `client:batch` and the client `batch` get two ids; so do one
 * subject at two issuers.
 */
export function namespacedPrincipalId(parts: { issuer: string; kind: string; subject: string }): string {
  return `${encodeURIComponent(parts.kind)}:${encodeURIComponent(parts.subject)}@${parts.issuer}`;
}
