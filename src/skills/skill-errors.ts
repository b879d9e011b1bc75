/** Start-up refusals of a skills folder: one FrameworkError naming the folder and the file at fault. */
import { FrameworkError } from '../errors/framework-error';

export function invalidSkill(where: string, problem: string): FrameworkError {
  return new FrameworkError('OMC_INVALID_SKILL', `Skill ${where} ${problem}.`);
}
