/** Fills `{{name}}` placeholders; a placeholder without a value is a bug in the template, so it throws. */
import { readFileSync } from 'node:fs';

export type Values = Readonly<Record<string, string>>;

export function render(template: string, values: Values, label = 'template'): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => {
    const value = values[key];
    if (value === undefined) throw new Error(`${label} uses {{${key}}}, which has no value.`);
    return value;
  });
}

export function renderFile(path: string, values: Values): string {
  return render(readFileSync(path, 'utf8'), values, path);
}
