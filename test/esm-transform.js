/**
 * Jest transform for ESM-only dependencies (jose): ESM → CommonJS with TypeScript's transpiler,
 * class fields kept as they are (jose's error classes set fields right after super()).
 */
const ts = require('typescript');

const compilerOptions = {
  allowJs: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.CommonJS,
  useDefineForClassFields: true,
  sourceMap: false,
};

module.exports = {
  process(sourceText, sourcePath) {
    return { code: ts.transpileModule(sourceText, { compilerOptions, fileName: sourcePath }).outputText };
  },
  getCacheKey(sourceText, sourcePath) {
    return require('node:crypto').createHash('sha256').update('esm-transform-1').update(sourcePath).update(sourceText).digest('hex');
  },
};
