"""Forced alignment with pocketsphinx, the one aligner of the corpus's real speech.

human-align.py (the dev set's `human` recordings) and real-align.py (real speech for training) both
fit a known transcript to 16 kHz mono s16 audio with pocketsphinx's bundled en-US acoustic model and
cmudict, in two passes (words, then phones within them), and write what this module returns:

    words:  [{"word", "start", "end"}]      # frames of 10 ms
    phones: [{"phone", "start", "end"}]     # ARPAbet without stress, SIL for silence

Imported by path (the scripts' names have hyphens): needs the venv of human-fetch.sh.
"""

import re

# The decoder's default beams first (every earlier alignment was made with them), then wider ones:
# a hoarse voice or a long pause can fall out of the default beams, and the forced alignment then
# ends outside its grammar.
BEAMS = ({}, {"beam": 1e-120, "wbeam": 1e-100, "pbeam": 1e-120})


class NoAlignment(RuntimeError):
    """The decoder found no path through the transcript's grammar (wider beams may find one)."""


class WordsDiffer(Exception):
    """The aligned words are not the transcript's: the transcript does not match the audio."""


def words_of(transcript):
    """The transcript as the dictionary's words: lower case, hyphens split, punctuation dropped."""
    text = transcript.lower().replace("-", " ")
    return [w for w in (re.sub(r"[^a-z']", "", t).strip("'") for t in text.split()) if w]


def new_decoder(beams, sample_rate=16000, **options):
    """A pocketsphinx decoder for forced alignment with one of BEAMS (imported late: the scripts'
    usage errors need no venv)."""
    from pocketsphinx import Decoder

    return Decoder(samprate=sample_rate, bestpath=False, loglevel="ERROR", **options, **beams)


def align_once(decoder, audio, words):
    """One forced alignment of `words` (already in the decoder's dictionary) to `audio`: a word pass,
    then the phone-level pass over it. Returns the words, the phones and the acoustic score per frame
    of the spoken words' phones. Raises NoAlignment or WordsDiffer."""
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
        raise NoAlignment("the aligner found no alignment")
    out_words, out_phones = [], []
    score, frames = 0, 0
    for word in alignment:
        name = re.sub(r"\(\d+\)$", "", word.name)
        out_words.append({"word": name, "start": word.start, "end": word.start + word.duration})
        for phone in word:
            out_phones.append({"phone": phone.name, "start": phone.start, "end": phone.start + phone.duration})
            if name not in ("<sil>", "<s>", "</s>") and not name.startswith("["):
                score += phone.score
                frames += phone.duration
    spoken = [w["word"] for w in out_words if not w["word"].startswith("<") and not w["word"].startswith("[")]
    if spoken != words:
        raise WordsDiffer(f"aligned words {spoken} differ from the transcript's {words}")
    return out_words, out_phones, score / max(frames, 1)


def align(decoder_for, audio, words, retry_on=(NoAlignment,)):
    """Aligns with each of BEAMS in turn until one fits: `decoder_for(index)` gives a decoder for
    BEAMS[index] that knows every word. An error of a `retry_on` type moves on to the next beams;
    after the last, NoAlignment names the last failure.

    Returns the words, the phones and the fit: the acoustic score per frame of the spoken words
    (pocketsphinx's log base 1.0001; closer to 0 = the audio sounds more like the phones it was
    forced onto; mispronounced or mistranscribed words score low) and which beams it took."""
    failure = None
    for index in range(len(BEAMS)):
        try:
            out_words, out_phones, per_frame = align_once(decoder_for(index), audio, words)
            return out_words, out_phones, {"scorePerFrame": round(per_frame, 1), "beams": index}
        except retry_on as error:
            failure = error
    raise NoAlignment(str(failure))
