/**
 * Where `@Effect()` methods report a call. The replay linter (context layer) installs the
 * observer; with none installed a call costs one property read.
 */
export const effectCalls: { observer?: (name: string) => void } = {};
