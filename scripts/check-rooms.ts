/**
 * The rooms inside a package's `src/` and which of them may import which: `check-deps` runs
 * {@link roomProblems} on every table in {@link ROOM_TABLES}, so an import that runs back up (a
 * sub-room into its parent's session code, ingress into http, a shared module into a room) fails
 * `pnpm lint`.
 */
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { importsOf, sourceFiles } from './source-imports.js';

/** One package's rooms. */
export interface RoomTable {
  /** The folder the rooms are in, relative to the repo root. */
  src: string;
  /** Files directly in `src` that wire the rooms together: they may import any room. */
  composition: readonly string[];
  /**
   * Room → the rooms its files may import besides their own. A room is a folder under `src`
   * (`ingress/output` is a room of its own, apart from `ingress`); `.` is the other files directly
   * in `src` (shared modules). Every folder holding source files must be a room here.
   */
  may: Readonly<Record<string, readonly string[]>>;
}

const COMPOSITION = '(composition)';

/** The service: http and ingress on top, the rooms they use below, shared modules (`.`) at the bottom. */
export const SERVICE_ROOMS: RoomTable = {
  src: 'apps/service/src',
  composition: ['config.ts', 'index.ts', 'main.ts', 'service.ts'],
  may: {
    '.': [],
    audio: ['.'],
    avatars: ['.', 'store'],
    capacity: ['.', 'store'],
    credentials: ['.'],
    egress: ['.'],
    'engine-pool': ['.'],
    store: ['.'],
    http: ['.', 'avatars', 'capacity', 'credentials', 'engine-pool', 'ingress', 'store'],
    ingress: [
      '.',
      'audio',
      'avatars',
      'capacity',
      'credentials',
      'egress',
      'engine-pool',
      'ingress/output',
      'ingress/socket',
      'store',
    ],
    // The outputs report to the session through events; they never import it.
    'ingress/output': ['.', 'egress', 'ingress/socket'],
    'ingress/socket': ['.', 'capacity'],
  },
};

export const ROOM_TABLES: readonly RoomTable[] = [SERVICE_ROOMS];

/** The room of a file (a path relative to `src`), or undefined for a folder the table does not name. */
function roomOf(table: RoomTable, path: string): string | undefined {
  const dir = dirname(path).split(sep).join('/');
  if (dir === '.' && table.composition.includes(path)) return COMPOSITION;
  return Object.hasOwn(table.may, dir) ? dir : undefined;
}

/**
 * Every relative import in `table`'s rooms that its room may not make, and every folder the table
 * does not name, as sentences that say what to do. `root` is the repo root.
 */
export function roomProblems(root: string, table: RoomTable): string[] {
  const src = resolve(root, table.src);
  const problems: string[] = [];
  const unnamed = new Set<string>();
  for (const file of sourceFiles(src)) {
    const path = relative(src, file);
    const shown = relative(root, file);
    const from = roomOf(table, path);
    if (from === undefined) {
      const dir = dirname(path).split(sep).join('/');
      if (!unnamed.has(dir)) {
        unnamed.add(dir);
        problems.push(
          `${table.src}/${dir}/ is no room of scripts/check-rooms.ts: add it to the table with the rooms it may import.`,
        );
      }
      continue;
    }
    if (from === COMPOSITION) continue;
    for (const spec of importsOf(readFileSync(file, 'utf8'))) {
      if (!spec.startsWith('.')) continue;
      const target = relative(src, resolve(dirname(file), spec));
      if (target.startsWith('..')) continue; // outside src (package.json): not a room
      const to = roomOf(table, target.replace(/\.js$/, '.ts'));
      if (to === from || (to !== undefined && to !== COMPOSITION && table.may[from]!.includes(to))) continue;
      const what = to === COMPOSITION ? `${target}, which wires the rooms together` : `room ${to ?? target}`;
      problems.push(
        `${shown} (room ${from}) imports ${spec}: ${what} is not below it. Move the shared code down, or have ${to ?? 'that code'} report to ${from} (events, callbacks) instead.`,
      );
    }
  }
  return problems;
}

/** Problems of every table, for check-deps. */
export function allRoomProblems(root: string): string[] {
  return ROOM_TABLES.flatMap((table) => roomProblems(root, table));
}
