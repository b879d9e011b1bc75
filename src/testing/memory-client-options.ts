/** `MemoryClientOptions`: the in-memory test client's options, checked at connect like every options class (D9). */
import { IsIn, IsObject, IsOptional, IsString } from 'class-validator';
import { validateOptions } from '../config/validate-options';
import type { Principal } from '../context/principal';
import type { JsonObject } from '../protocol/jsonrpc';
import type { ClientCapabilities, Implementation } from '../protocol/types';

export type ServerRequestHandler = (params: JsonObject) => unknown | Promise<unknown>;

export class MemoryClientOptions {
  @IsIn(['modern', 'legacy']) era!: 'modern' | 'legacy';
  /** Legacy revision to negotiate (default 2025-11-25). */
  @IsOptional() @IsString() protocolVersion?: string;
  @IsOptional() @IsObject() capabilities?: ClientCapabilities;
  @IsOptional() @IsObject() clientInfo?: Implementation;
  /** Answers legacy server-to-client requests by method (elicitation/create, sampling/createMessage, roots/list). */
  @IsOptional() @IsObject() handlers?: Record<string, ServerRequestHandler>;
  @IsOptional() @IsObject() principal?: Principal;
}

export function validateMemoryClientOptions(input: MemoryClientOptions): Readonly<MemoryClientOptions> {
  return validateOptions(MemoryClientOptions, input, { label: 'MemoryClientOptions' });
}
