// ESLint 9 flat config: typescript-eslint, one formatting style (@stylistic, matching the code as it is)
// and the layer boundaries of docs/architecture.md (eslint-plugin-boundaries).
import tseslint from 'typescript-eslint';
import stylistic from '@stylistic/eslint-plugin';
import boundaries from 'eslint-plugin-boundaries';

/**
 * The layers of src/, lowest first. A folder may import its own files and any folder of a LOWER tier;
 * a folder of its own tier or of a higher one is an upward (or sideways) import and an error.
 * `root` is src/index.ts (the public surface) and any folder not yet given a layer: it may import
 * everything and nothing may import it. Keep in step with docs/architecture.md.
 */
// `server` is one layer with rooms inside (core, request, replies, replay, legacy, fleet, methods,
// pipeline, tasks: docs/architecture.md, "The server layer"). Rooms may import each other; what keeps
// them apart is scripts/check-house.mjs (run after ESLint by `npm run lint`): no import cycle, no file
// over 400 lines.
export const LAYERS = [
  ['protocol'],
  ['errors'],
  ['metadata', 'schema', 'skills'],
  ['decorators', 'config'],
  ['registry', 'state', 'telemetry'],
  ['context'],
  ['server', 'approval'],
  ['app', 'transports', 'guards'],
  ['adapters', 'client', 'redis', 'auth'],
  ['testing', 'bridge'],
  ['cli'],
  ['root'],
];

/** One policy per layer: disallow every layer of its tier or above, except itself. */
function layerPolicies() {
  return LAYERS.flatMap((tier, rank) => tier.map((layer) => ({
    from: { element: { type: layer } },
    disallow: {
      to: { element: { types: { anyOf: LAYERS.slice(rank).flat().filter((other) => other !== layer) } } },
    },
  })));
}

/** A string or template literal this long may carry its line past 120 characters. */
const LONG_LITERAL = 40;
/** Where a literal can open (so the text between two short literals does not count as one). */
const OPENS = '(?<=^|[\\s([{:=,])';

export default tseslint.config(
  {
    ignores: ['dist/**', 'build/**', 'node_modules/**', 'coverage/**', 'templates/**', '**/*.d.ts', '**/*.js', '**/*.mjs'],
  },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommended],
    plugins: { '@stylistic': stylistic },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      // `Function` is what legacy decorators and the metadata store are keyed by (TypeScript's own
      // ClassDecorator / PropertyDecorator signatures use it); a DTO or provider class is a Function.
      '@typescript-eslint/no-unsafe-function-type': 'off',
      '@typescript-eslint/no-unused-vars': ['error', {
        argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true,
      }],
      '@typescript-eslint/no-unused-expressions': ['error', { allowTernary: true, allowShortCircuit: true }],
      // `import x = require('…')` is TypeScript's CommonJS import; plain require() stays refused in src.
      '@typescript-eslint/no-require-imports': ['error', { allowAsImport: true }],
      '@stylistic/indent': ['error', 2, { SwitchCase: 1, offsetTernaryExpressions: true }],
      '@stylistic/quotes': ['error', 'single', { avoidEscape: true, allowTemplateLiterals: 'always' }],
      '@stylistic/semi': ['error', 'always'],
      // Lines over 120 are wrapped. A line may run past it only for a long string, template or regex
      // literal (a message stays greppable in one piece) or for a test's title line.
      '@stylistic/max-len': ['error', {
        code: 120,
        ignoreUrls: true,
        ignoreRegExpLiterals: true,
        ignorePattern: [
          '^\\s*(it|test|describe)(\\.\\w+)*(\\(.*\\))?\\(',
          "'[^']{LONG,}'",
          '"[^"]{LONG,}"',
          '`[^`]{LONG,}`',
        ].map((p) => (p.startsWith('^') ? p : `${OPENS}${p}`)).join('|').replaceAll('LONG', String(LONG_LITERAL)),
      }],
      '@stylistic/eol-last': 'error',
      '@stylistic/no-trailing-spaces': 'error',
      '@stylistic/comma-dangle': ['error', 'always-multiline'],
    },
  },
  {
    // Tests poke at raw wire JSON (`any` for parsed frames) and load modules in isolation (require).
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
  {
    files: ['src/**/*.ts'],
    plugins: { boundaries },
    settings: {
      'import/resolver': { node: { extensions: ['.ts', '.d.ts', '.js'] } },
      'boundaries/elements': LAYERS.flatMap((tier) => tier.map((layer) => ({
        type: layer,
        pattern: layer === 'root' ? 'src' : `src/${layer}`,
        partialMatch: false,
      }))),
    },
    rules: {
      'boundaries/dependencies': ['error', { default: 'allow', policies: layerPolicies() }],
    },
  },
);
