/**
 * The scalp shell under a card-built hairstyle: the hair seen deep between the cards. It follows
 * the style's volume a little below the cards, in the shaded root colour, so gaps between cards
 * read as more hair and never as a pale cap; at the hairline it thins onto the skin (its colour
 * lets the skin through, as sparse roots do) and its edge dives under the skin, so no rim shows.
 */

import type { FaceLayout } from '../layout.js';
import { add, lerp, linearRgb, mix3, scale, smoothstep, type V3, v3 } from '../math.js';
import { fanIndices, gridIndices, orientAway, type Part } from '../part.js';
import { type HairShape, hairSurface } from './shape.js';

const AROUND = 144;
const ROWS = 32;
/** How far the shell sits below the cards' base surface (metres). */
const BELOW_CARDS = 0.0012;
/** The shell never comes closer to the skin than this above the hairline (metres). */
const MIN_LIFT = 0.0004;

export interface ShellOptions {
  /** How much of the skin colour shows through at the very hairline (0..1). */
  hairlineSkin: number;
  /** Brightness of the shell against the root colour (it is in the cards' shade). */
  shade: number;
  /**
   * How far above the hairline the shell stops (radians): the cards' frayed tips draw the last
   * of the hairline over bare skin, so no edge of the shell shows through them.
   */
  inset: number;
}

/** The shell as its own part (material `scalp`), crown first, then rings down to the hairline. */
export function buildHairShell(layout: FaceLayout, shape: HairShape, options: ShellOptions): Part {
  const style = layout.style;
  const root = linearRgb(style.colors.hair);
  const tip = linearRgb(style.colors.hairTip);
  const skin = linearRgb(style.colors.skin);
  const positions: V3[] = [];
  const colors: V3[] = [];
  for (let row = 0; row <= ROWS + 2; row++) {
    for (let j = 0; j < AROUND; j++) {
      const phi = -Math.PI + (2 * Math.PI * j) / AROUND;
      const k = Math.max(0.5, Math.min(row, ROWS)) / ROWS;
      // The rows past the last one step on down the head as they dive, so the edge is a slope.
      const past = Math.max(0, row - ROWS) * 0.012;
      const el = lerp(Math.PI / 2, shape.hairline(phi) + options.inset, k ** 0.85) - past;
      const dir = v3(Math.cos(el) * Math.sin(phi), Math.sin(el), Math.cos(el) * Math.cos(phi));
      let p: V3;
      if (row <= ROWS) {
        const volume = shape.volume(dir);
        p = hairSurface(layout, shape, dir, -Math.min(BELOW_CARDS, Math.max(0, volume - MIN_LIFT)));
      } else {
        // Two rows past the hairline tuck the edge under the skin.
        p = add(layout.skinAt(dir), scale(dir, row === ROWS + 1 ? -0.0002 : -0.0015));
      }
      positions.push(p);
      // Faint streaks round the head, so the shell is not one flat tone where it shows.
      const streak = 0.9 + 0.1 * Math.sin(phi * 37 + 5 * el) * Math.sin(phi * 11 - 3 * el);
      const hair = scale(mix3(root, tip, 0.25 * smoothstep(0.3, 1, k)), options.shade * streak);
      // Under the cards' frayed ends the shell lets the skin through; where it dives it is skin.
      const edge = smoothstep(0.93, 1, k);
      colors.push(row > ROWS ? skin : mix3(hair, skin, options.hairlineSkin * edge));
    }
  }
  // Crown: the centre of the first ring, so the fan has no pinch.
  const crown = positions.length;
  const first = positions.slice(0, AROUND);
  positions.push(
    scale(
      first.reduce((acc, p) => add(acc, p), v3(0, 0, 0)),
      1 / AROUND,
    ),
  );
  colors.push(scale(root, options.shade));
  let indices = [...gridIndices(ROWS + 3, AROUND, true), ...fanIndices(crown, 0, AROUND, true)];
  indices = orientAway(positions, indices, v3(0, 0, 0), AROUND * 2 * 4);
  return { name: 'Hair', material: 'scalp', positions, colors, indices };
}
