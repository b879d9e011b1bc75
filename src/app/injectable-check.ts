/**
 * Start-up check that every class the container will construct can be constructed (DESIGN D7):
 * without it, a provider whose constructor takes parameters but lacks @injectable() is built with
 * `new Cls()` and every call fails with "Cannot read properties of undefined".
 */
import type { DependencyContainer } from 'tsyringe';
import { FrameworkError } from '../errors/framework-error';
import { MetadataStore } from '../metadata/store';
import { isContextType } from '../registry/definitions';

function isNative(fn: Function): boolean {
  return /\{\s*\[native code\]\s*\}\s*$/.test(Function.prototype.toString.call(fn));
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * Checks the given classes and, through their constructor parameter types, every class they
 * depend on that the container would build itself. Throws OMC_NOT_INJECTABLE or
 * OMC_UNRESOLVABLE_DEPENDENCY naming the class (and the parameter position).
 */
export function assertConstructible(roots: Iterable<Function>, container: DependencyContainer): void {
  const seen = new Set<Function>();
  const visit = (cls: Function, neededBy?: string): void => {
    if (seen.has(cls)) return;
    seen.add(cls);
    const declared = MetadataStore.ownConstructorParamTypes(cls);
    if (declared === undefined) {
      // An undecorated subclass inherits its parent's parameters but not its injection metadata.
      const takes = Math.max(cls.length, MetadataStore.constructorParamTypes(cls)?.length ?? 0);
      if (takes === 0) return;
      const via = neededBy ? ` (needed by ${neededBy})` : '';
      throw new FrameworkError(
        'OMC_NOT_INJECTABLE',
        `${cls.name}${via}: its constructor takes ${plural(takes, 'parameter')} but the class has no @injectable() (or @singleton()), so nothing would be injected. Add @injectable() above \`class ${cls.name}\`.`,
      );
    }
    const injected = MetadataStore.injectedPositions(cls);
    declared.forEach((type, i) => {
      if (injected.has(i) || isContextType(type)) return;
      // Provided by value, factory or another class: that provider is the container's business.
      if (type !== undefined && container.isRegistered(type as never, true)) return;
      // tsyringe builds an unregistered built-in only when it takes no arguments (an empty Map, Set…).
      if (type === undefined || type === Object || type === Symbol || (isNative(type) && type.length > 0)) {
        throw new FrameworkError(
          'OMC_UNRESOLVABLE_DEPENDENCY',
          `${cls.name}: constructor parameter ${i + 1} has no class type the container can build (an interface, a primitive or \`any\`). Use a class type, or \`@inject(TOKEN)\` with a provider { provide: TOKEN, useValue | useFactory | useClass }.`,
        );
      }
      if (!isNative(type)) visit(type, cls.name);
    });
  };
  for (const cls of roots) visit(cls);
}
