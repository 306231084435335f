"""Real human speech for the dev set's `human` condition: extraction and forced alignment.

    python human-align.py DIR     (run by human-fetch.sh with DIR/venv's python)

For every recording of human-recordings.json (next to this file): checks the archive in DIR/src
against its pinned sha256, extracts the member, checks the WAV's sha256 and format (16 kHz mono
16-bit: what the aligner's acoustic model was trained on), writes DIR/<id>.wav, and force-aligns
the known transcript with pocketsphinx (its bundled en-US acoustic model and cmudict, plus the
recording's own pronunciations for words the dictionary lacks; the aligner is sphinx_align.py,
shared with real-align.py). Writes DIR/<id>.align.json:

    {"id", "sampleRate", "frameRate": 100,
     "words":  [{"word", "start", "end"}],      # frames of 10 ms
     "phones": [{"phone", "start", "end"}]}     # ARPAbet without stress, SIL for silence

The phones are the aligner's second (phone-level) pass over the word alignment. corpus/human.ts
maps them to visemes with Festival's table (the same CMU phone set, lower-cased).
"""

import hashlib
import io
import json
import os
import sys
import tarfile
import wave

import sphinx_align  # corpus/sphinx_align.py: a script's own folder is on sys.path

HERE = os.path.dirname(os.path.abspath(__file__))


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def align(audio, sample_rate, words, pronunciations):
    """A fresh decoder per recording and beam setting, with the recording's own pronunciations."""

    def decoder_for(index):
        decoder = sphinx_align.new_decoder(sphinx_align.BEAMS[index], sample_rate)
        for word, phones in pronunciations.items():
            decoder.add_word(word, phones, True)
        return decoder

    try:
        out_words, out_phones, _fit = sphinx_align.align(decoder_for, audio, words, retry_on=(RuntimeError,))
        return out_words, out_phones
    except sphinx_align.NoAlignment as failure:
        raise SystemExit(f"human-align: no alignment even with wide beams ({failure}): check the transcript against the audio")
    except sphinx_align.WordsDiffer as error:
        raise SystemExit(f"human-align: {error}")


def main():
    if len(sys.argv) != 2:
        raise SystemExit("usage: human-align.py DIR")
    root = sys.argv[1]
    with open(os.path.join(HERE, "human-recordings.json"), encoding="utf8") as f:
        manifest = json.load(f)
    for name, archive in manifest["archives"].items():
        path = os.path.join(root, "src", name)
        with open(path, "rb") as f:
            got = sha256(f.read())
        if got != archive["sha256"]:
            raise SystemExit(f"human-align: {path} has sha256 {got}, expected {archive['sha256']}")
    for rec in manifest["recordings"]:
        with tarfile.open(os.path.join(root, "src", rec["archive"])) as tar:
            data = tar.extractfile(rec["member"]).read()
        if sha256(data) != rec["sha256"]:
            raise SystemExit(f"human-align: {rec['member']} has sha256 {sha256(data)}, expected {rec['sha256']}")
        with wave.open(io.BytesIO(data)) as w:
            if (w.getframerate(), w.getnchannels(), w.getsampwidth()) != (16000, 1, 2):
                raise SystemExit(f"human-align: {rec['member']} is not 16 kHz mono 16-bit")
            audio = w.readframes(w.getnframes())
        with open(os.path.join(root, f"{rec['id']}.wav"), "wb") as f:
            f.write(data)
        words, phones = align(audio, 16000, sphinx_align.words_of(rec["transcript"]), rec["pronunciations"])
        result = {"id": rec["id"], "sampleRate": 16000, "frameRate": 100, "words": words, "phones": phones}
        with open(os.path.join(root, f"{rec['id']}.align.json"), "w", encoding="utf8") as f:
            json.dump(result, f, indent=1)
            f.write("\n")
        seconds = len(audio) / 2 / 16000
        print(f"human-align: {rec['id']}: {seconds:.1f} s, {len(words)} words, {len(phones)} phones")


if __name__ == "__main__":
    main()
