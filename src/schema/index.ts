export { Field, getFieldOptions, type FieldOptions, type FieldTypeThunk } from './field';
export { dtoToJsonSchema, jsonSchemaFor } from './dto-schema';
export { checkDto, type DtoOutline } from './dto-check';
export { dtoToElicitationSchema } from './elicitation-form';
export { createDtoValidator, type DtoValidation } from './dto-validator';
export { compileJsonSchema, type JsonSchemaValidation } from './json-schema-validator';
export type { JsonSchemaObject, ElicitationSchema, ElicitationPrimitive } from './json-schema-types';
