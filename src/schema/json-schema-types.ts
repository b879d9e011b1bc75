/** A JSON Schema document or fragment (2020-12). Kept loose on purpose: schemas are data, not code. */
export type JsonSchemaObject = { readonly [keyword: string]: unknown };

/** One answer field of an MCP elicitation form (the spec's restricted "PrimitiveSchemaDefinition"). */
export type ElicitationPrimitive =
  | ElicitationString
  | ElicitationNumber
  | ElicitationBoolean
  | ElicitationSingleSelect
  | ElicitationMultiSelect;

interface Annotated {
  readonly title?: string;
  readonly description?: string;
}

export interface ElicitationString extends Annotated {
  readonly type: 'string';
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly format?: 'email' | 'uri' | 'date' | 'date-time';
  readonly default?: string;
}

export interface ElicitationNumber extends Annotated {
  readonly type: 'number' | 'integer';
  readonly minimum?: number;
  readonly maximum?: number;
  readonly default?: number;
}

export interface ElicitationBoolean extends Annotated {
  readonly type: 'boolean';
  readonly default?: boolean;
}

export interface TitledOption {
  readonly const: string;
  readonly title: string;
}

export interface ElicitationSingleSelect extends Annotated {
  readonly type: 'string';
  readonly enum?: readonly string[];
  readonly oneOf?: readonly TitledOption[];
  /** Deprecated by the spec, still emitted on request for older clients. */
  readonly enumNames?: readonly string[];
  readonly default?: string;
}

export interface ElicitationMultiSelect extends Annotated {
  readonly type: 'array';
  readonly items:
    { readonly type: 'string'; readonly enum: readonly string[] } | { readonly anyOf: readonly TitledOption[] };
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly default?: readonly string[];
}

/** The `requestedSchema` of a form-mode `elicitation/create`: flat, primitives only. */
export type ElicitationSchema = {
  readonly type: 'object';
  readonly properties: { readonly [name: string]: ElicitationPrimitive };
  readonly required?: readonly string[];
};
