import { MetadataStore } from '../metadata/store';
import type { SkillsOptions } from '../metadata/options';

/**
 * Publishes a folder of Agent Skills (SEP-2640): each sub-folder with a SKILL.md is a skill, served
 * as `skill://` resources and listed by `skills/list`. `@UseGuards` on the same class applies to its
 * skills as to resources. Start-up reads and checks the folder; the decorator only records it.
 */
export function Skills(options: SkillsOptions): ClassDecorator {
  return (target) => MetadataStore.addSkills(target, { ...options });
}
