/**
 * Building the registry stays linear in the app's size (issue 38): class-validator's storage is read with
 * one Map lookup per ancestor of each DTO, never scanned per DTO, and a call that still goes through
 * class-validator's own validate() (a custom constraint) costs the same lookups however many DTOs exist.
 * Counted, not timed: the machine is shared.
 */
import 'reflect-metadata';
import {
  getMetadataStorage,
  IsInt,
  IsOptional,
  IsString,
  MaxLength,
  Min,
  Validate,
  ValidatorConstraint,
} from 'class-validator';
import type { ValidatorConstraintInterface } from 'class-validator';
import { Tool } from '../../../src';
import { makeApp, MemoryClient } from '../../helpers/apps';

/** class-validator's Map of metadata by target, counting lookups and every walk over all its entries. */
class CountingMap<K, V> extends Map<K, V> {
  gets = 0;
  scans = 0;
  override get(key: K) {
    this.gets++;
    return super.get(key);
  }
  override entries() {
    this.scans++;
    return super.entries();
  }
  override keys() {
    this.scans++;
    return super.keys();
  }
  override values() {
    this.scans++;
    return super.values();
  }
  override forEach(...args: Parameters<Map<K, V>['forEach']>) {
    this.scans++;
    return super.forEach(...args);
  }
  override [Symbol.iterator]() {
    this.scans++;
    return super[Symbol.iterator]();
  }
}

function countingStorage(): CountingMap<unknown, unknown> {
  const storage = getMetadataStorage() as unknown as { validationMetadatas: Map<unknown, unknown> };
  const counting = new CountingMap(storage.validationMetadatas);
  storage.validationMetadatas = counting;
  counting.gets = 0;
  counting.scans = 0;
  return counting;
}

@ValidatorConstraint({ name: 'notBlank' })
class NotBlank implements ValidatorConstraintInterface {
  validate(value: unknown) {
    return typeof value === 'string' && value.trim() !== '';
  }
  defaultMessage() {
    return '$property must not be blank';
  }
}

/** `n` tools, each a method with its own three-field DTO (the last one with a custom constraint), ten per class. */
function generatedApp(n: number, prefix: string) {
  const providers: Function[] = [];
  for (let i = 0; i < n; i++) {
    const name = `${prefix}_${i}`;
    const Args = class {};
    const p = Args.prototype;
    const field = (key: string, type: Function, decorators: PropertyDecorator[]) => {
      for (const d of decorators) d(p, key);
      Reflect.defineMetadata('design:type', type, p, key);
    };
    field('text', String, [IsString(), MaxLength(200)]);
    field('count', Number, [IsOptional(), IsInt(), Min(0)]);
    field('label', String, i === n - 1 ? [IsString(), Validate(NotBlank)] : [IsOptional(), IsString()]);
    if (i % 10 === 0) providers.push(class {});
    const cls = providers[providers.length - 1]!;
    (cls.prototype as Record<string, unknown>)[name] = (args: { text: string }) => `${name}:${args.text}`;
    Reflect.defineMetadata('design:paramtypes', [Args], cls.prototype, name);
    const descriptor = Object.getOwnPropertyDescriptor(cls.prototype, name)!;
    Tool({ description: name })(cls.prototype, name, descriptor);
  }
  return makeApp(providers);
}

async function measure(n: number, prefix: string) {
  const counting = countingStorage();
  const app = generatedApp(n, prefix);
  const client = await MemoryClient.connect(app, { era: 'modern' });
  const tools: unknown[] = [];
  for (let cursor: string | undefined, first = true; first || cursor; first = false) {
    const page = await client.request('tools/list', cursor === undefined ? {} : { cursor });
    tools.push(...(page.tools as unknown[]));
    cursor = page.nextCursor as string | undefined;
  }
  const atStart = { gets: counting.gets, scans: counting.scans };
  // The last tool's DTO has a custom constraint: its calls go through class-validator's validate().
  const last = `${prefix}_${n - 1}`;
  await client.request('tools/call', { name: last, arguments: { text: 'warm', label: 'x' } });
  counting.gets = 0;
  const result = await client.request('tools/call', { name: last, arguments: { text: 'hi', label: 'x' } });
  const perCall = { gets: counting.gets, scans: counting.scans - atStart.scans };
  const refused = await client.raw('tools/call', { name: last, arguments: { text: 'hi', label: '  ' } });
  await client.close();
  return { atStart, perCall, tools: tools.length, result, refused };
}

describe('registry building scales linearly', () => {
  it('reads class-validator metadata with a bounded number of lookups per DTO and never scans it', async () => {
    const small = await measure(200, 'small');
    const large = await measure(2000, 'large');
    expect(small.tools).toBe(200);
    expect(large.tools).toBe(2000);
    expect(small.atStart.scans).toBe(0);
    expect(large.atStart.scans).toBe(0);
    // Ten times the DTOs, ten times the lookups (a scan per DTO would be a hundred times the work).
    expect(large.atStart.gets).toBeLessThanOrEqual(small.atStart.gets * 10 * 1.2);
    expect(large.atStart.gets / 2000).toBeLessThan(20);
  });

  it('a call through class-validator (custom constraint) costs the same lookups at 50 DTOs and at 2 000', async () => {
    const few = await measure(50, 'few');
    const many = await measure(2000, 'many');
    expect(few.result.isError).toBeFalsy();
    expect(many.result.isError).toBeFalsy();
    expect(JSON.stringify(many.refused)).toContain('must not be blank');
    expect(few.perCall.scans).toBe(0);
    expect(many.perCall.scans).toBe(0);
    expect(few.perCall.gets).toBeGreaterThan(0);
    expect(many.perCall.gets).toBe(few.perCall.gets);
  });
});
