// Generates the bundled sample sentences with espeak-ng (public/samples/*.wav + index.json).
// Skips files that are already there, so repeated builds are cheap.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'public', 'samples');

/** Sentences chosen for varied mouth shapes: open vowels, closures (p/b/m), rounding (o/u), fricatives. */
export const SAMPLES = [
  {
    id: 'hello',
    voice: 'en-us',
    text: 'Hello! I am your avatar. Every word you hear moves my lips in time.',
  },
  {
    id: 'weather',
    voice: 'en-us',
    text: 'Good morning. Expect bright sunshine, a cool breeze, and maybe a shower by noon.',
  },
  { id: 'numbers', voice: 'en-gb', text: 'One, two, three, four, five. Papa bought a big blue balloon.' },
  {
    id: 'support',
    voice: 'en-us',
    text: 'Thanks for calling. Your order shipped this morning and should arrive on Thursday.',
  },
];

mkdirSync(out, { recursive: true });
for (const s of SAMPLES) {
  const file = join(out, `${s.id}.wav`);
  if (existsSync(file)) continue;
  try {
    execFileSync('espeak-ng', ['-v', s.voice, '-s', '150', '-w', file, s.text], { stdio: 'pipe' });
  } catch (error) {
    console.error(
      `espeak-ng failed (${error.message}). Install it (apt-get install espeak-ng, listed in scripts/apt-packages.txt) and rebuild.`,
    );
    process.exit(1);
  }
}
writeFileSync(
  join(out, 'index.json'),
  `${JSON.stringify(
    SAMPLES.map(({ id, text }) => ({ id, text, url: `samples/${id}.wav` })),
    null,
    2,
  )}\n`,
);
console.log(`samples: ${SAMPLES.length} sentences in ${out}`);
