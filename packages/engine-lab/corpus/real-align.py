"""Real speech for training: force-aligns a subset of a public speech corpus that is on disk.

    python real-align.py KIND SRC OUT [--per-speaker N] [--max N] [--from-speaker ID]

KIND is one of
  speechocean762  SRC = a checkout of jimbozhang/speechocean762 (OpenSLR 101, Apache-2.0):
                  adult speakers only (spk2age >= 18, train and test lists), the first N
                  utterances of each in utterance-id order (--from-speaker ID: only the speakers
                  whose id sorts at or after ID, to split a run); the corpus's own lexicon
                  (resource/lexicon.txt) gives the pronunciations the aligner's cmudict lacks.
  fsdd            SRC = a checkout of Jakobovski/free-spoken-digit-dataset (CC BY-SA 4.0): the first N
                  recordings of each speaker and digit, in file-name order (8 kHz, kept at 8 kHz).
  ljspeech        SRC = coqui-ai/TTS's tests/data/ljspeech (LJSpeech excerpt, public domain): every
                  clip of metadata.csv.

For each chosen recording writes OUT/<id>.wav (the audio at its own rate, mono s16) and
OUT/<id>.align.json in human-align.py's format (10 ms frames), aligned by sphinx_align.py as the
dev set's recordings are (its bundled en-US model wants 16 kHz: the audio is converted with sox for the aligner only).
A recording the aligner cannot fit to its transcript is skipped and counted, never guessed. Each kept
one records its fit (the acoustic score per frame of its words) in its .align.json and the manifest:
speechocean762's per-phone pronunciation scores are not reachable here, so the aligner's own fit is
the quality filter (real-corpus.ts --min-fit).
Writes OUT/manifest.json listing what was kept and skipped. Needs the venv of human-fetch.sh.
"""

import json
import os
import re
import subprocess
import sys
import wave

import sphinx_align  # corpus/sphinx_align.py: a script's own folder is on sys.path


DIGITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]


def read_table(path):
    out = {}
    with open(path, encoding="utf8") as f:
        for line in f:
            parts = line.rstrip("\n").split(None, 1)
            if len(parts) == 2:
                out[parts[0]] = parts[1]
    return out


def speechocean(src, per_speaker, first_speaker=""):
    ages, texts, wavs = {}, {}, {}
    for split in ("train", "test"):
        ages.update({k: int(v) for k, v in read_table(os.path.join(src, split, "spk2age")).items()})
        texts.update(read_table(os.path.join(src, split, "text")))
        wavs.update(read_table(os.path.join(src, split, "wav.scp")))
    utt2spk = {}
    for split in ("train", "test"):
        utt2spk.update(read_table(os.path.join(src, split, "utt2spk")))
    lexicon = {}
    with open(os.path.join(src, "resource", "lexicon.txt"), encoding="utf8") as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 2 and parts[0].lower() not in lexicon:
                lexicon[parts[0].lower()] = " ".join(re.sub(r"\d$", "", p) for p in parts[1:])
    taken = {}
    for utt in sorted(texts):
        spk = utt2spk.get(utt)
        if spk is None or ages.get(spk, 0) < 18 or spk < first_speaker:
            continue
        if taken.get(spk, 0) >= per_speaker:
            continue
        taken[spk] = taken.get(spk, 0) + 1
        words = sphinx_align.words_of(texts[utt])
        yield {
            "id": f"so762-{utt}",
            "path": os.path.join(src, wavs[utt]),
            "speaker": f"speechocean762:{spk}",
            "words": words,
            "pronunciations": {w: lexicon[w] for w in words if w in lexicon},
        }


def fsdd(src, per_digit, _first=""):
    rec = os.path.join(src, "recordings")
    names = sorted(os.listdir(rec))
    taken = {}
    for name in names:
        m = re.match(r"^(\d)_([a-z]+)_(\d+)\.wav$", name)
        if not m:
            continue
        key = (m.group(1), m.group(2))
        if int(m.group(3)) >= per_digit:
            continue
        taken[key] = taken.get(key, 0) + 1
        yield {
            "id": f"fsdd-{m.group(2)}-{m.group(1)}-{m.group(3)}",
            "path": os.path.join(rec, name),
            "speaker": f"fsdd:{m.group(2)}",
            "words": [DIGITS[int(m.group(1))]],
            "pronunciations": {},
        }


def ljspeech(src, _limit, _first=""):
    with open(os.path.join(src, "metadata.csv"), encoding="utf8") as f:
        for line in f:
            parts = line.rstrip("\n").split("|")
            if len(parts) < 2:
                continue
            text = parts[2] if len(parts) > 2 and parts[2] else parts[1]
            yield {
                "id": f"ljs-{parts[0]}",
                "path": os.path.join(src, "wavs", f"{parts[0]}.wav"),
                "speaker": "ljspeech:LJ",
                "words": sphinx_align.words_of(text),
                "pronunciations": {},
            }


KINDS = {"speechocean762": speechocean, "fsdd": fsdd, "ljspeech": ljspeech}


class Aligner:
    """sphinx_align's two-pass forced alignment with one decoder per beam setting, built once
    (without a language model: a forced alignment needs only the dictionary and the acoustic model;
    building a decoder per recording reloaded the model each time, ≈ 20 s)."""

    def __init__(self):
        self.decoders = {}

    def decoder(self, index):
        if index not in self.decoders:
            self.decoders[index] = sphinx_align.new_decoder(sphinx_align.BEAMS[index], lm=None)
        return self.decoders[index]

    def align(self, audio, words, pronunciations):
        def decoder_for(index):
            decoder = self.decoder(index)
            for word, phones in pronunciations.items():
                if decoder.lookup_word(word) is None:
                    decoder.add_word(word, phones, True)
            missing = [w for w in words if decoder.lookup_word(w) is None]
            if missing:
                raise SystemExit(f"no pronunciation for {missing}")
            return decoder

        try:
            return sphinx_align.align(decoder_for, audio, words)
        except sphinx_align.WordsDiffer as error:
            raise SystemExit(str(error))


def audio_16k(path):
    """The recording as 16 kHz mono s16 bytes for the aligner (sox's high-quality resampler)."""
    return subprocess.run(
        ["sox", path, "-t", "raw", "-r", "16000", "-e", "signed", "-b", "16", "-c", "1", "-"],
        check=True,
        capture_output=True,
    ).stdout


def write_manifest(out, kind, src, per, kept, skipped, seconds):
    """What was kept so far (rewritten as the run goes, so a run cut short still says what it holds)."""
    manifest = {"kind": kind, "source": os.path.abspath(src), "perSpeaker": per, "kept": kept,
                "skipped": skipped, "hours": round(seconds / 3600, 4)}
    with open(os.path.join(out, "manifest.json.partial"), "w", encoding="utf8") as f:
        json.dump(manifest, f, indent=1)
    os.replace(os.path.join(out, "manifest.json.partial"), os.path.join(out, "manifest.json"))


def main():
    args = sys.argv[1:]
    if len(args) < 3 or args[0] not in KINDS:
        raise SystemExit(f"usage: real-align.py {{{'|'.join(KINDS)}}} SRC OUT [--per-speaker N] [--max N] [--from-speaker ID]")
    kind, src, out = args[:3]
    per = int(args[args.index("--per-speaker") + 1]) if "--per-speaker" in args else 10
    limit = int(args[args.index("--max") + 1]) if "--max" in args else 10**9
    os.makedirs(out, exist_ok=True)
    kept, skipped, seconds = [], [], 0.0
    aligner = Aligner()
    first = args[args.index("--from-speaker") + 1] if "--from-speaker" in args else ""
    for item in KINDS[kind](src, per, first):
        if len(kept) >= limit:
            break
        if not item["words"]:
            continue
        with wave.open(item["path"]) as w:
            rate, channels, width = w.getframerate(), w.getnchannels(), w.getsampwidth()
            frames = w.readframes(w.getnframes())
        if channels != 1 or width != 2:
            skipped.append({"id": item["id"], "why": "not mono s16"})
            continue
        try:
            words, phones, fit = aligner.align(audio_16k(item["path"]), item["words"], item["pronunciations"])
        except (SystemExit, RuntimeError) as error:
            skipped.append({"id": item["id"], "why": str(error)[:200]})
            continue
        with wave.open(os.path.join(out, f"{item['id']}.wav"), "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(rate)
            w.writeframes(frames)
        result = {"id": item["id"], "sampleRate": rate, "frameRate": 100, "fit": fit, "words": words, "phones": phones}
        with open(os.path.join(out, f"{item['id']}.align.json"), "w", encoding="utf8") as f:
            json.dump(result, f)
        seconds += len(frames) / 2 / rate
        kept.append({"id": item["id"], "speaker": item["speaker"], "seconds": round(len(frames) / 2 / rate, 3),
                     "fit": fit["scorePerFrame"]})
        if len(kept) % 25 == 0:
            write_manifest(out, kind, src, per, kept, skipped, seconds)
    write_manifest(out, kind, src, per, kept, skipped, seconds)
    print(f"real-align: {kind}: {len(kept)} recordings, {seconds / 60:.1f} min; {len(skipped)} skipped")


if __name__ == "__main__":
    main()
