"""Real human speech for the dev set's `human` condition: extraction and forced alignment.

    python human-align.py DIR     (run by human-fetch.sh with DIR/venv's python)

For every recording of human-recordings.json (next to this file): checks the archive in DIR/src
against its pinned sha256, extracts the member, checks the WAV's sha256 and format (16 kHz mono
16-bit: what the aligner's acoustic model was trained on), writes DIR/<id>.wav, and force-aligns
the known transcript with pocketsphinx (its bundled en-US acoustic model and cmudict, plus the
recording's own pronunciations for words the dictionary lacks). Writes DIR/<id>.align.json:

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
import re
import sys
import tarfile
import wave

HERE = os.path.dirname(os.path.abspath(__file__))


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def words_of(transcript):
    """The transcript as the dictionary's words: lower case, hyphens split, punctuation dropped."""
    text = transcript.lower().replace("-", " ")
    return [w for w in (re.sub(r"[^a-z']", "", t).strip("'") for t in text.split()) if w]


# The decoder's default beams first (every earlier alignment was made with them), then wider ones:
# a hoarse voice or a long pause can fall out of the default beams, and the forced alignment then
# ends outside its grammar.
BEAMS = ({}, {"beam": 1e-120, "wbeam": 1e-100, "pbeam": 1e-120})


def align(audio, sample_rate, words, pronunciations):
    for beams in BEAMS:
        try:
            return align_with(audio, sample_rate, words, pronunciations, beams)
        except RuntimeError as error:
            failure = error
    raise SystemExit(f"human-align: no alignment even with wide beams ({failure}): check the transcript against the audio")


def align_with(audio, sample_rate, words, pronunciations, beams):
    from pocketsphinx import Decoder

    decoder = Decoder(samprate=sample_rate, bestpath=False, loglevel="ERROR", **beams)
    for word, phones in pronunciations.items():
        decoder.add_word(word, phones, True)
    decoder.set_align_text(" ".join(words))
    decoder.start_utt()
    decoder.process_raw(audio, full_utt=True)
    decoder.end_utt()
    decoder.set_alignment()
    decoder.start_utt()
    decoder.process_raw(audio, full_utt=True)
    decoder.end_utt()
    alignment = decoder.get_alignment()
    if alignment is None:
        raise RuntimeError("the aligner found no alignment")
    out_words, out_phones = [], []
    for word in alignment:
        name = re.sub(r"\(\d+\)$", "", word.name)
        out_words.append({"word": name, "start": word.start, "end": word.start + word.duration})
        for phone in word:
            out_phones.append({"phone": phone.name, "start": phone.start, "end": phone.start + phone.duration})
    spoken = [w["word"] for w in out_words if not w["word"].startswith("<") and not w["word"].startswith("[")]
    if spoken != words:
        raise SystemExit(f"human-align: aligned words {spoken} differ from the transcript's {words}")
    return out_words, out_phones


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
        words, phones = align(audio, 16000, words_of(rec["transcript"]), rec["pronunciations"])
        result = {"id": rec["id"], "sampleRate": 16000, "frameRate": 100, "words": words, "phones": phones}
        with open(os.path.join(root, f"{rec['id']}.align.json"), "w", encoding="utf8") as f:
            json.dump(result, f, indent=1)
            f.write("\n")
        seconds = len(audio) / 2 / 16000
        print(f"human-align: {rec['id']}: {seconds:.1f} s, {len(words)} words, {len(phones)} phones")


if __name__ == "__main__":
    main()
