/** `onemodelcontext add tool|prompt|resource|resource-template <Name>`: two new files and one line in src/app.ts. */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { classNameProblem, namesFor, type Kind } from './names';
import { CliError, type Output } from './output';
import { templatesDir } from './package-root';
import { ProviderEditError, registerProvider } from './register-provider';
import { renderFile } from './render';

export interface AddRequest {
  kind: Kind;
  name: string;
  /** The project folder (holds src/app.ts). */
  projectDir: string;
  /** `create --force` may replace files; `add` never does. */
  overwrite?: boolean;
}

export function addComponent(request: AddRequest, out: Output): string[] {
  const { kind, name, projectDir } = request;
  const problem = classNameProblem(name);
  if (problem) throw new CliError(`Invalid ${kind} name: ${problem}.`);
  const names = namesFor(kind, name);
  const appFile = join(projectDir, 'src', 'app.ts');
  if (!existsSync(appFile)) {
    throw new CliError(
      `${relative(process.cwd(), appFile) || appFile} not found: run \`add\` in a project made by \`onemodelcontext create\` (or pass --cwd <project>).`,
    );
  }

  const files = [
    { path: join(projectDir, 'src', `${names.moduleName}.ts`), template: `${kind}.ts.tmpl` },
    { path: join(projectDir, 'test', `${names.moduleName}.test.ts`), template: `${kind}.test.ts.tmpl` },
  ];
  if (!request.overwrite) {
    const existing = files.filter((f) => existsSync(f.path)).map((f) => relative(projectDir, f.path));
    if (existing.length)
      throw new CliError(`Not overwriting ${existing.join(' and ')}: choose another name or remove the file.`);
  }

  // Everything that can fail is checked before the first write, so a failed `add` changes nothing.
  let updatedApp: string;
  try {
    updatedApp = registerProvider(readFileSync(appFile, 'utf8'), {
      className: names.className,
      from: `./${names.moduleName}`,
    });
  } catch (error) {
    if (error instanceof ProviderEditError) throw new CliError(error.message);
    throw error;
  }
  const values = { ...names };
  const rendered = files.map((f) => ({ ...f, text: renderFile(join(templatesDir(), 'add', f.template), values) }));

  for (const file of rendered) {
    mkdirSync(join(file.path, '..'), { recursive: true });
    writeFileSync(file.path, file.text, { flag: request.overwrite ? 'w' : 'wx' });
    out.info(`  create ${relative(projectDir, file.path)}`);
  }
  writeFileSync(appFile, updatedApp);
  out.info(`  update src/app.ts (${names.className} added to providers)`);
  return rendered.map((f) => f.path);
}
