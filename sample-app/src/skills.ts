/** The travel desk's Agent Skills (SEP-2640): every folder under sample-app/skills with a SKILL.md. */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Skills } from 'onemodelcontext';

/** sample-app/skills, from the source tree or from build/ (the compiler copies no markdown). */
function skillsFolder(): string {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    const candidate = join(dir, 'sample-app', 'skills');
    if (existsSync(candidate)) return candidate;
  }
  return join(__dirname, '..', 'skills');
}

@Skills({ directory: skillsFolder(), prefix: 'travel-desk' })
export class TravelSkills {}
