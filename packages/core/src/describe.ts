/**
 * Safe descriptions of arbitrary values for error messages. Building a message must never throw
 * (objects with odd `toString`, symbols, bigints), or a typed error would turn into a TypeError.
 */

/** A short, never-throwing description of `value` for an error message. */
export function describeValue(value: unknown): string {
  switch (typeof value) {
    case 'number':
    case 'boolean':
    case 'bigint':
    case 'undefined':
    case 'symbol':
      return String(value);
    case 'string':
      return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
    case 'function':
      return 'a function';
    default:
      return describeObject(value as object | null);
  }
}

function describeObject(value: object | null): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (ArrayBuffer.isView(value)) {
    const name = Object.prototype.toString.call(value).slice(8, -1);
    return `a ${name} of ${(value as { length?: unknown }).length ?? value.byteLength}`;
  }
  if (value instanceof ArrayBuffer) return `an ArrayBuffer of ${value.byteLength} bytes`;
  const tag = Object.prototype.toString.call(value).slice(8, -1);
  return tag === 'Object' ? 'an object' : `a ${tag}`;
}

/** True when every index of `array` (holes included, unlike `Array.prototype.every`) passes. */
export function everyIndex<T>(array: readonly unknown[], test: (item: unknown) => item is T): array is T[];
export function everyIndex(array: readonly unknown[], test: (item: unknown) => boolean): boolean;
export function everyIndex(array: readonly unknown[], test: (item: unknown) => boolean): boolean {
  for (let i = 0; i < array.length; i++) if (!test(array[i])) return false;
  return true;
}
