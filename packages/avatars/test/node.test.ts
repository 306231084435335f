import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_AVATAR_IDS } from '../src/index.js';
import { builtInAvatarsDir } from '../src/node.js';

describe('builtInAvatarsDir', () => {
  it('points at the directory holding index.json and every built-in avatar', () => {
    const dir = builtInAvatarsDir();
    expect(existsSync(join(dir, 'index.json'))).toBe(true);
    for (const id of BUILT_IN_AVATAR_IDS) {
      expect(existsSync(join(dir, id, 'avatar.glb'))).toBe(true);
      expect(existsSync(join(dir, id, 'manifest.json'))).toBe(true);
    }
  });
});
