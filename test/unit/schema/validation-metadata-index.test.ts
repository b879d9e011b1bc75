/** The indexed lookup answers exactly what class-validator's scanning lookup answers, and validate() uses it. */
import {
  getMetadataStorage,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MetadataStorage,
  validateSync,
} from 'class-validator';
import { indexedMetadataStorage, targetValidationMetadatas } from '../../../src/schema/validation-metadata-index';

class Root {
  @IsString() name!: string;
  @IsInt({ groups: ['admin'] }) level!: number;
  @IsOptional({ always: true }) @MaxLength(10, { always: false }) note?: string;
}
class Middle extends Root {
  @IsInt() @Min(1) count!: number;
  @MaxLength(5) override name!: string;
}
class Leaf extends Middle {
  @IsString({ groups: ['admin', 'public'] }) label!: string;
  @Max(9) override count!: number;
  @IsInt({ groups: [''] }) odd!: number;
}
class Unrelated {
  @IsString() other!: string;
}
class NoRules extends Leaf {}
const bare = function () {} as unknown as Function;

const scanning = MetadataStorage.prototype.getTargetValidationMetadatas;
const key = (m: { target: unknown; propertyName: string; name?: string; type: string }) =>
  `${(m.target as Function).name}.${m.propertyName}:${m.name ?? m.type}`;

describe('targetValidationMetadatas', () => {
  const storage = getMetadataStorage();
  const cases: Array<[boolean, boolean, string[] | undefined]> = [];
  for (const always of [true, false])
    for (const strict of [true, false])
      for (const groups of [undefined, [], ['admin'], ['public', 'x'], ['']]) cases.push([always, strict, groups]);

  it.each([Root, Middle, Leaf, Unrelated, NoRules, bare])('answers as class-validator does for %p', (target) => {
    for (const [always, strict, groups] of cases) {
      const expected = scanning.call(storage, target, '', always, strict, groups).map(key);
      const actual = targetValidationMetadatas(storage, target, '', always, strict, groups).map(key);
      // class-validator orders inherited entries by registration; ours walks root first, the same for classes
      // declared parent before child. The set and the own-first split are what validate() relies on.
      expect(new Set(actual)).toEqual(new Set(expected));
      expect(actual.length).toBe(expected.length);
      const own = expected.filter((k) => k.startsWith(`${target.name}.`));
      expect(actual.slice(0, own.length)).toEqual(own);
    }
  });

  it('is installed on the storage, so validateSync reports the same errors without scanning every class', () => {
    const before = validateSync(Object.assign(new Leaf(), { name: 'far too long', count: 20, label: 3 }));
    indexedMetadataStorage();
    expect(Object.prototype.hasOwnProperty.call(storage, 'getTargetValidationMetadatas')).toBe(true);
    const spy = jest.spyOn(MetadataStorage.prototype, 'getTargetValidationMetadatas');
    const after = validateSync(Object.assign(new Leaf(), { name: 'far too long', count: 20, label: 3 }));
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
    const shape = (es: typeof before) => es.map((e) => [e.property, Object.keys(e.constraints ?? {}).sort()]).sort();
    expect(shape(after)).toEqual(shape(before));
    expect(shape(after).length).toBeGreaterThan(0);
  });

  it('sees metadata registered after it was installed', () => {
    indexedMetadataStorage();
    class Later extends Middle {}
    IsString()(Later.prototype, 'late');
    const found = targetValidationMetadatas(storage, Later, '', true, false).map((m) => m.propertyName);
    expect(found).toEqual(expect.arrayContaining(['late', 'count', 'name']));
    const errors = validateSync(Object.assign(new Later(), { name: 'ok', count: 1, level: 2, late: 4 }));
    expect(errors.map((e) => e.property)).toEqual(['late']);
  });
});
