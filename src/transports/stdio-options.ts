/** `StdioOptions`: the stdio transport's configuration, checked like every other options class (DESIGN D9). */
import { IsBoolean, IsInt, IsOptional, Min } from 'class-validator';
import type { Readable, Writable } from 'node:stream';
import { HasMethods } from '../config/option-rules';
import { noOptionsGiven, validateOptions } from '../config/validate-options';

export class StdioOptions {
  /** Where messages come from (default process.stdin). */
  @IsOptional() @HasMethods('on') input?: Readable;
  /** Where messages go (default process.stdout). */
  @IsOptional() @HasMethods('write') output?: Writable;
  /** Largest frame accepted (bytes); a longer line is refused and skipped. */
  @IsInt() @Min(1024) maxFrameBytes = 10 * 1024 * 1024;
  /** Send every printing console method to stderr so nothing but MCP reaches stdout. */
  @IsBoolean() redirectConsole = true;
}

export function validateStdioOptions(input: Partial<StdioOptions> = {}): Readonly<StdioOptions> {
  return validateOptions(StdioOptions, input, { label: 'StdioOptions', accept: noOptionsGiven });
}
