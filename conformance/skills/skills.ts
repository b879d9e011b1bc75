/**
 * The Skills extension fixture (SEP-2640 scenarios `sep-2640-skills-*`): one skill, pdf-processing,
 * with a subfolder so directory reads have a child directory to descend into.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Skills } from '../../src';

/** The fixtures folder, from the source tree or from build/ (tsc copies no markdown). */
function fixtures(): string {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    const candidate = join(dir, 'conformance', 'skills', 'fixtures');
    if (existsSync(candidate)) return candidate;
  }
  return join(__dirname, 'fixtures');
}

@Skills({ directory: fixtures() })
export class ConformanceSkills {}
