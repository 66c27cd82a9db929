/**
 * `target` with some of its methods replaced, the rest bound to it: an
 * observer can wrap an object (the queue) without the object knowing, and
 * wrappers stack.
 */
export function withOverrides<T extends object>(target: T, overrides: Partial<T>): T {
  return new Proxy(target, {
    get(object, prop, receiver) {
      const own = overrides[prop as keyof T];
      if (own !== undefined) return own;
      const value: unknown = Reflect.get(object, prop, receiver);
      return typeof value === "function" ? value.bind(object) : value;
    },
  });
}
