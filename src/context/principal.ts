/** Who is calling, as established by the server's authentication hook. `id` binds sessions and state. */
export interface Principal {
  readonly id: string;
  readonly [claim: string]: unknown;
}
