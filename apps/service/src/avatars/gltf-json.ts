/** Reading untrusted glTF JSON: type guards that turn a bad value into a typed refusal. */
import { fileProblem } from './file-problem.js';

/** A glTF JSON object (everything in it is `unknown` until checked). */
export type GltfJson = Record<string, unknown>;

export function isObject(value: unknown): value is GltfJson {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isIndex(value: unknown, length: number): boolean {
  return Number.isInteger(value) && (value as number) >= 0 && (value as number) < length;
}

/** A list of objects (an absent list is empty). */
export function list(value: unknown, where: string): GltfJson[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every(isObject)) {
    throw fileProblem('jsonInvalid', `${where} is not a list of objects. The file is corrupt; re-export it.`);
  }
  return value;
}

export function count(value: unknown, where: string): number {
  if (!Number.isSafeInteger(value) || (value as number) < 0) {
    throw fileProblem(
      'outOfRange',
      `${where} is ${JSON.stringify(value) ?? 'missing'}, not a byte count. The file is corrupt; re-export it.`,
    );
  }
  return value as number;
}

export function index(value: unknown, length: number, where: string): number {
  if (!isIndex(value, length)) {
    throw fileProblem(
      'outOfRange',
      `${where} is ${JSON.stringify(value) ?? 'missing'}, but only ${length} exist. The file is corrupt; re-export it.`,
    );
  }
  return value as number;
}
