/** Protocol revisions this framework speaks, and which era each belongs to. */

export const MODERN_VERSION = '2026-07-28';
export const LEGACY_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26'] as const;
export const LATEST_LEGACY_VERSION = LEGACY_VERSIONS[0];

export type ModernVersion = typeof MODERN_VERSION;
export type LegacyVersion = (typeof LEGACY_VERSIONS)[number];
export type ProtocolVersion = ModernVersion | LegacyVersion;
export type Era = 'modern' | 'legacy';

/** Versions a dual-era server lists in `server/discover` and in -32022 data (kept identical on purpose). */
export const MODERN_SUPPORTED: readonly string[] = Object.freeze([MODERN_VERSION]);

export function isLegacyVersion(v: unknown): v is LegacyVersion {
  return typeof v === 'string' && (LEGACY_VERSIONS as readonly string[]).includes(v);
}

export function isModernVersion(v: unknown): v is ModernVersion {
  return v === MODERN_VERSION;
}

/** Date-shaped revisions compare lexically; anything else is not a revision we can order. */
export function eraOfClaim(v: string): Era | undefined {
  if (v === MODERN_VERSION) return 'modern'; // what nearly every 2026 request claims: no regex for it
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return undefined;
  return v >= MODERN_VERSION ? 'modern' : 'legacy';
}

/** Legacy negotiation: echo a supported version, otherwise offer our latest legacy one. */
export function negotiateLegacyVersion(requested: unknown): LegacyVersion {
  return isLegacyVersion(requested) ? requested : LATEST_LEGACY_VERSION;
}

/** Per-revision feature gates for legacy down-conversion (digest §7). */
export function legacyFeatures(v: LegacyVersion) {
  return {
    batching: v === '2025-03-26',
    titles: v !== '2025-03-26',
    structuredContent: v !== '2025-03-26',
    resourceLinks: v !== '2025-03-26',
    /** `_meta` on content blocks and resource contents. */
    contentMeta: v !== '2025-03-26',
    elicitation: v !== '2025-03-26',
    urlElicitation: v === '2025-11-25',
    icons: v === '2025-11-25',
    samplingTools: v === '2025-11-25',
  };
}
