/**
 * `TestClientOptions`: the test kit's own options (era, answers, declare, replayLint) next to the
 * ContextClientOptions they are passed with, checked in one pass like every options object
 * (DESIGN D9): a misspelt key is refused with the nearest name from either set.
 */
import { IsArray, IsBoolean, IsIn, IsObject, IsOptional } from 'class-validator';
import { validateOptions } from '../config/validate-options';
import { ClientInfoOptions, ContextClientOptions, type ContextClientInit } from '../client/options';
import { LEGACY_VERSIONS, MODERN_VERSION, type LegacyVersion, type ModernVersion } from '../protocol/versions';
import { ASK_KINDS, type AskKind, type ScriptedAnswers } from './scripted-answers';

export type TestEra = ModernVersion | LegacyVersion;
const TEST_ERAS: readonly TestEra[] = [MODERN_VERSION, ...LEGACY_VERSIONS];

export interface TestClientOptions extends Omit<
  ContextClientInit,
  'protocolVersion' | 'elicitation' | 'urlElicitation' | 'sampling' | 'roots'
> {
  /** The revision to speak (default 2026-07-28). */
  era?: TestEra;
  answers?: ScriptedAnswers;
  /** Capabilities the simulated client declares (default: all four kinds). */
  declare?: AskKind[];
  /**
   * The replay linter on an in-memory app (default true): every 2026 round that still asks runs
   * twice and must ask the same questions; an `@Effect()` outside `ctx.once` in it fails the call.
   */
  replayLint?: boolean;
}

/** The kit's own options, one definition each with its default; the client's are inherited. */
export class TestClientSettings extends ContextClientOptions {
  @IsIn(TEST_ERAS as TestEra[]) era: TestEra = MODERN_VERSION;
  @IsOptional() @IsObject() answers?: ScriptedAnswers;
  @IsArray() @IsIn(ASK_KINDS as AskKind[], { each: true }) declare: AskKind[] = [...ASK_KINDS];
  @IsBoolean() replayLint = true;
}

export interface TestKitSettings {
  readonly era: TestEra;
  readonly answers?: ScriptedAnswers;
  readonly declare: readonly AskKind[];
  readonly replayLint: boolean;
}

const KIT_KEYS: readonly string[] = ['era', 'answers', 'declare', 'replayLint'];

/** Checks every key once; returns the kit's settings and the client's options as given (the client defaults them). */
export function resolveTestClientOptions(
  options: TestClientOptions,
): { kit: TestKitSettings; client: ContextClientInit } {
  const settings = validateOptions(TestClientSettings, options, {
    label: 'TestClientOptions',
    nested: { clientInfo: ClientInfoOptions },
  });
  const client = Object.fromEntries(Object.entries(options).filter(([key]) => !KIT_KEYS.includes(key)));
  const { era, answers, declare, replayLint } = settings;
  return { kit: { era, answers, declare, replayLint }, client };
}
