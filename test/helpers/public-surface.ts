/**
 * Reads the public surface of src/index.ts with the TypeScript compiler: which names it exports
 * (values and types), and every type of ours reachable from them (members, parameters, results,
 * type arguments) that it does not export — a name a user meets but cannot import.
 */
import { join, relative } from 'node:path';
import ts from 'typescript';

const ROOT = join(__dirname, '..', '..');
const SRC = join(ROOT, 'src') + '/';
const INDEX = join(ROOT, 'src', 'index.ts');

export interface Surface {
  /** Exported names that are values at run time (classes, functions, constants). */
  values: string[];
  /** Exported names that are types only (interfaces, type aliases). */
  types: string[];
  /** `Export.member…: Type (file)` for each reachable type of ours that index.ts does not export. */
  leaks: string[];
}

function compilerOptions(): ts.CompilerOptions {
  const file = ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile);
  return ts.parseJsonConfigFileContent(file.config, ts.sys, ROOT).options;
}

/**
 * `entry` defaults to src/index.ts; a subpath entry (src/adapters/express.ts …) may also use the
 * types the main entry exports, so those count as exported for it.
 */
export function readSurface(entry = INDEX): Surface {
  const program = ts.createProgram([INDEX, entry], { ...compilerOptions(), noEmit: true });
  const checker = program.getTypeChecker();
  const exportsOf = (file: string) =>
    checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(file)!)!);
  const resolve = (s: ts.Symbol) => (s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s);
  const exported = exportsOf(entry);
  const roots = new Set([...exported, ...exportsOf(INDEX)].map(resolve));
  const values: string[] = [];
  const types: string[] = [];
  const typeOnly = (e: ts.Symbol) =>
    e.declarations?.some((d) => ts.isExportSpecifier(d) && (d.isTypeOnly || d.parent.parent.isTypeOnly)) ?? false;
  for (const e of exported) (resolve(e).flags & ts.SymbolFlags.Value && !typeOnly(e) ? values : types).push(e.name);

  const leaks = new Set<string>();
  const seen = new Set<ts.Type>();
  const ours = (s: ts.Symbol | undefined): s is ts.Symbol =>
    !!s?.declarations?.some((d) => d.getSourceFile().fileName.startsWith(SRC));
  const fileOf = (s: ts.Symbol) => relative(ROOT, s.declarations![0]!.getSourceFile().fileName);
  const hidden = (d: ts.Declaration) =>
    !!(ts.getCombinedModifierFlags(d) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) ||
    ts.getJSDocTags(d).some((tag) => tag.tagName.text === 'internal');
  const isPublic = (p: ts.Symbol) => !p.name.startsWith('#') && !p.declarations?.some(hidden);

  /** Named types of ours stop the walk: exported ones are walked as roots, others are leaks. */
  const NAMED = ts.SymbolFlags.Class | ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias | ts.SymbolFlags.Enum;
  const named = (s: ts.Symbol | undefined, path: string): boolean => {
    if (!ours(s) || !(resolve(s).flags & NAMED)) return false;
    const symbol = resolve(s);
    if (!roots.has(symbol) && !symbol.name.startsWith('__')) leaks.add(`${path}: ${symbol.name} (${fileOf(symbol)})`);
    return true;
  };

  const walk = (t: ts.Type, path: string, root = false): void => {
    if (!root && named(t.aliasSymbol, path)) return t.aliasTypeArguments?.forEach((a) => walk(a, path));
    if (t.isUnionOrIntersection()) return t.types.forEach((u) => walk(u, path));
    if (!(t.flags & ts.TypeFlags.Object)) return;
    const reference = (t as ts.ObjectType).objectFlags & ts.ObjectFlags.Reference ? (t as ts.TypeReference) : undefined;
    reference?.typeArguments && checker.getTypeArguments(reference).forEach((a) => walk(a, path));
    const target = reference?.target ?? t;
    if (!root && named(target.symbol, path)) return;
    // Library types (Promise, Map, Error …) are walked through their type arguments only.
    if (target.symbol && target.symbol.flags & NAMED && !ours(target.symbol)) return;
    if (seen.has(t)) return;
    seen.add(t);
    members(t, path);
  };

  const members = (t: ts.Type, path: string): void => {
    for (const p of checker.getPropertiesOfType(t)) {
      if (!isPublic(p) || p.name === 'prototype' || !ours(p)) continue;
      walk(checker.getTypeOfSymbol(p), `${path}.${p.name}`);
    }
    for (const kind of [ts.SignatureKind.Call, ts.SignatureKind.Construct]) {
      for (const sig of checker.getSignaturesOfType(t, kind)) {
        if (sig.declaration && hidden(sig.declaration as ts.Declaration)) continue;
        sig.getParameters().forEach((p) => walk(checker.getTypeOfSymbol(p), `${path}(${p.name})`));
        walk(sig.getReturnType(), `${path}()`);
      }
    }
    for (const info of checker.getIndexInfosOfType(t)) walk(info.type, `${path}[]`);
  };

  for (const e of exported) {
    const s = resolve(e);
    if (s.flags & ts.SymbolFlags.Value) walk(checker.getTypeOfSymbol(s), e.name, true);
    if (s.flags & (ts.SymbolFlags.Type & ~ts.SymbolFlags.Value) || s.flags & ts.SymbolFlags.Class) {
      walk(checker.getDeclaredTypeOfSymbol(s), e.name, true);
    }
  }
  return { values: values.sort(), types: types.sort(), leaks: [...leaks].sort() };
}
