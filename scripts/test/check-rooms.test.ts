/**
 * The rooms check that `pnpm lint` runs (scripts/check-rooms.ts): a fixture tree with the
 * service's shape, one import at a time, then the real apps/service/src.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type RoomTable, roomProblems, SERVICE_ROOMS } from '../check-rooms.js';

const TABLE: RoomTable = {
  src: 'src',
  composition: ['service.ts'],
  may: {
    '.': [],
    http: ['.', 'ingress'],
    ingress: ['.', 'ingress/output'],
    'ingress/output': ['.'],
  },
};

let root: string | undefined;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

/** A fixture repo with these files (path under the repo → text); returns its root. */
function fixture(files: Record<string, string>): string {
  root = mkdtempSync(join(tmpdir(), 'check-rooms-'));
  const base = {
    'src/service.ts':
      "import { routes } from './http/routes.js';\nimport { Session } from './ingress/session.js';\n",
    'src/metrics.ts': 'export const metrics = {};\n',
    'src/http/routes.ts':
      "import { Session } from '../ingress/session.js';\nexport const routes = [Session];\n",
    'src/ingress/session.ts':
      "import { metrics } from '../metrics.js';\nimport { SocketOutput } from './output/socket-output.js';\nexport class Session {}\n",
    'src/ingress/output/socket-output.ts':
      "import { metrics } from '../../metrics.js';\nimport type { Data } from '../../../package.json';\nexport class SocketOutput {}\n",
  };
  for (const [path, text] of Object.entries({ ...base, ...files })) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('roomProblems', () => {
  it('passes a tree whose imports all run down (imports outside src are not rooms)', () => {
    expect(roomProblems(fixture({}), TABLE)).toEqual([]);
  });

  it('fails a sub-room that imports its parent room', () => {
    const problems = roomProblems(
      fixture({
        'src/ingress/output/egress-output.ts': "import type { Session } from '../session.js';\n",
      }),
      TABLE,
    );
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('src/ingress/output/egress-output.ts (room ingress/output)');
    expect(problems[0]).toContain('../session.js');
  });

  it('fails ingress importing http, and a shared module importing a room', () => {
    const problems = roomProblems(
      fixture({
        'src/ingress/upgrade.ts': "export { routes } from '../http/routes.js';\n",
        'src/errors.ts': "const s = await import('./ingress/session.js');\n",
      }),
      TABLE,
    );
    expect(problems).toHaveLength(2);
    expect(
      problems.some((p) => p.startsWith('src/ingress/upgrade.ts (room ingress) imports ../http/routes.js')),
    ).toBe(true);
    expect(problems.some((p) => p.startsWith('src/errors.ts (room .) imports ./ingress/session.js'))).toBe(
      true,
    );
  });

  it('fails a room importing the composition root', () => {
    const problems = roomProblems(
      fixture({ 'src/http/app.ts': "import { x } from '../service.js';\n" }),
      TABLE,
    );
    expect(problems).toEqual([expect.stringContaining('which wires the rooms together')]);
  });

  it('fails a folder the table does not name, once', () => {
    const problems = roomProblems(
      fixture({ 'src/ingress/extra/a.ts': 'export {};\n', 'src/ingress/extra/b.ts': 'export {};\n' }),
      TABLE,
    );
    expect(problems).toEqual([expect.stringContaining('src/ingress/extra/ is no room')]);
  });

  it('ignores imports in comments (TSDoc examples)', () => {
    const text =
      "/** e.g. `import { Session } from '../session.js'` */\n// import '../session.js';\nexport {};\n";
    expect(roomProblems(fixture({ 'src/ingress/output/doc.ts': text }), TABLE)).toEqual([]);
  });
});

describe('the service', () => {
  it("apps/service/src imports only down its rooms' table", () => {
    expect(roomProblems(resolve(import.meta.dirname, '../..'), SERVICE_ROOMS)).toEqual([]);
  });
});
