/** A flat DTO's calls are checked without Ajv: loading it would cost a cold process's first call >100 ms. */
import { IsInt, IsOptional, IsString, MaxLength, Min, MinLength } from 'class-validator';
import { createDtoValidator } from '../../../src/schema';

jest.mock('ajv/dist/2020', () => {
  throw new Error('Ajv was loaded');
});
jest.mock('ajv', () => {
  throw new Error('Ajv was loaded');
});

class Flat {
  @IsString() @MaxLength(5) name!: string;
  @IsOptional() @IsInt() @Min(0) count?: number;
}
class NotFlat {
  @IsString() @MinLength(2) name!: string;
}

test('a flat DTO accepts and refuses without loading Ajv; others take class-validator', () => {
  const flat = createDtoValidator(Flat);
  expect(flat({ name: 'abc', count: 2 })).toMatchObject({ ok: true, value: { name: 'abc', count: 2 } });
  expect(flat({ name: 'abcdef' })).toMatchObject({ ok: false });
  expect(flat({ name: 'abc', extra: 1 })).toMatchObject({ ok: false });
  const notFlat = createDtoValidator(NotFlat);
  expect(notFlat({ name: 'ab' })).toMatchObject({ ok: true });
  expect(notFlat({ name: 'a' })).toMatchObject({ ok: false });
});
