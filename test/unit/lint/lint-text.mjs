// Lints source texts as if they were files under src/, with the project's eslint.config.mjs, through
// the ESLint Node API. Run in a child process by lint-boundaries.test.ts (jest cannot import() ESM).
// stdin: [{ filePath, code }]; stdout: [{ filePath, messages: [{ ruleId, message }] }].
import { ESLint } from 'eslint';
import { readFileSync } from 'node:fs';

const cases = JSON.parse(readFileSync(0, 'utf8'));
const eslint = new ESLint({ cwd: process.cwd() });
const out = [];
for (const { filePath, code } of cases) {
  const [result] = await eslint.lintText(code, { filePath });
  out.push({ filePath, messages: result.messages.map(({ ruleId, message }) => ({ ruleId, message })) });
}
process.stdout.write(JSON.stringify(out));
