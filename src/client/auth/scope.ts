/**
 * Which scopes to ask for (MCP "scope selection strategy"): the challenge's `scope`, else the
 * client's own `scope` option, else the resource's `scopes_supported`, else none (the parameter is
 * omitted). A re-authorization keeps what was granted before (SEP-2350: the union), and
 * `offline_access` is added only when the authorization server lists it (SEP-2207).
 */
export interface ScopeInputs {
  challenged?: string;
  configured?: string;
  resourceSupported?: string[];
  serverSupported?: string[];
  prior?: string;
  offlineAccess: boolean;
}

function words(s: string | undefined): string[] {
  return (s ?? '').split(' ').filter(Boolean);
}

export function selectScope(i: ScopeInputs): string | undefined {
  let base = i.resourceSupported ?? [];
  if (i.configured !== undefined) base = words(i.configured);
  if (i.challenged !== undefined) base = words(i.challenged);
  const set = new Set([...words(i.prior), ...base]);
  if (i.offlineAccess && set.size > 0 && i.serverSupported?.includes('offline_access')) set.add('offline_access');
  return set.size ? [...set].join(' ') : undefined;
}
