/**
 * The relative links of a SKILL.md (`[text](references/GUIDE.md)`, `![img](assets/a.png)`):
 * what the skill promises to contain. URLs, absolute paths and in-page anchors are not links into
 * the skill; a `#fragment` or `?query` is dropped from the path; code spans and blocks are skipped.
 */
const LINK = /!?\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"\n]*")?\s*\)/g;

export function relativeLinks(markdown: string): string[] {
  const out: string[] = [];
  // Code is an example, not a promise: fenced blocks and inline code are skipped.
  const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  for (const match of prose.matchAll(LINK)) {
    const target = match[1]!;
    if (/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(target) || target.startsWith('/') || target.startsWith('#')) continue;
    const path = target.split(/[?#]/)[0]!;
    if (path !== '') out.push(decodeSafely(path));
  }
  return out;
}

function decodeSafely(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
