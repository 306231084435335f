// The sample sentence the page speaks, made with espeak-ng (public/samples/hello.wav; not committed).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'public', 'samples');
const file = join(out, 'hello.wav');
mkdirSync(out, { recursive: true });
if (!existsSync(file)) {
  try {
    const text = 'Hello from React! Papa bought a big blue balloon, and we all went out to play.';
    execFileSync('espeak-ng', ['-v', 'en-us', '-s', '150', '-w', file, text], { stdio: 'pipe' });
  } catch (error) {
    console.error(
      `espeak-ng failed (${error.message}). Install it (apt-get install espeak-ng, listed in scripts/apt-packages.txt) and rebuild.`,
    );
    process.exit(1);
  }
}
console.log(`sample: ${file}`);
