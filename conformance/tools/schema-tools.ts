/** Input-schema fixtures: the verbatim 2020-12 schema (SEP-1613/2106) and an x-mcp-header (SEP-2243). */
import { IsInt, IsOptional, IsString } from 'class-validator';
import { Field, Tool } from '../../src';

/** The suite's fixture, emitted unchanged: a raw JSON Schema is passed as `input` and never rewritten. */
export const JSON_SCHEMA_2020_12 = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: {
      $anchor: 'addressDef',
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string' } },
    },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
};

class HeaderArgs {
  @Field({ description: 'Region, mirrored into the Mcp-Param-Region header', mcpHeader: 'Region' })
  @IsString()
  region!: string;
  @Field({ description: 'A plain integer argument' }) @IsOptional() @IsInt() level?: number;
}

export class SchemaTools {
  @Tool({
    name: 'json_schema_2020_12_tool',
    description: 'Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)',
    input: JSON_SCHEMA_2020_12,
  })
  jsonSchema202012(args: Record<string, unknown>): string {
    return `JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`;
  }

  @Tool({ name: 'test_x_mcp_header', description: 'Tests x-mcp-header parameter mirroring (SEP-2243)' })
  xMcpHeader(args: HeaderArgs): string {
    return `region=${args.region}, level=${args.level ?? 'unset'}`;
  }

}
