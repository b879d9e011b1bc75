// The calls tsc emits for legacy decorators (`__decorate` + `design:*` metadata), so the bench
// servers can be plain JavaScript that starts without a compile step.
require('reflect-metadata');

/** `@A @B prop!: T` → property decorators plus `design:type`. */
function decorateProperty(cls, key, type, decorators) {
  Reflect.decorate([...decorators, Reflect.metadata('design:type', type)], cls.prototype, key, undefined);
}

/** `@A method(p1: T1, p2: T2)` → method decorators plus `design:paramtypes`. */
function decorateMethod(cls, key, paramTypes, decorators) {
  const target = cls.prototype;
  const descriptor = Reflect.decorate(
    [...decorators, Reflect.metadata('design:type', Function), Reflect.metadata('design:paramtypes', paramTypes), Reflect.metadata('design:returntype', Object)],
    target, key, Object.getOwnPropertyDescriptor(target, key),
  );
  if (descriptor) Object.defineProperty(target, key, descriptor);
}

module.exports = { decorateProperty, decorateMethod };
