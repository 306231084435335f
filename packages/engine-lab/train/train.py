"""Trains the viseme model in PyTorch from the dump train.ts writes (run by train.ts).

    python train/train.py DUMP_DIR [--threads N]

DUMP_DIR holds hops.f32 (standardised feature hops, the runtime's own arithmetic), labels.f32 (soft
15-viseme label per hop) and meta.json (sequences, context slots, sizes). The model is the one the
engine runs (src/model.ts, wasm/engine.c): each hop through a learnt linear projection (rows x
featureDim, no bias), context slots averaged over their hops (clamped to the sequence start and to
the newest hop the lookahead allows), then an MLP with ReLU and a softmax. It is causal: a frame
reads at most MODEL_LOOKAHEAD hops (20 ms) past its end. Writes DUMP_DIR/params.f32 (projection,
then per layer weights out x in row-major and biases, float32 little-endian) and result.json.

Deterministic for a given dump and seed on one machine (fixed seeds, one ordering of batches).
"""

import json
import math
import os
import sys
import time

import numpy as np
import torch
from torch import nn


def main():
    dump = sys.argv[1]
    threads = int(sys.argv[sys.argv.index("--threads") + 1]) if "--threads" in sys.argv else 2
    torch.set_num_threads(threads)
    with open(os.path.join(dump, "meta.json"), encoding="utf8") as f:
        meta = json.load(f)
    dim = meta["featureDim"]
    classes = len(meta["classes"])
    context = meta["context"]
    frame_hops = meta["hopsPerFrame"]
    lookahead = meta["lookahead"]
    pad = meta["pad"]
    rows = meta["projection"]
    hidden = meta["hidden"]
    epochs = meta["epochs"]
    seed = meta["seed"]
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)

    hops = torch.from_numpy(np.fromfile(os.path.join(dump, "hops.f32"), dtype="<f4").reshape(-1, dim))
    labels = torch.from_numpy(np.fromfile(os.path.join(dump, "labels.f32"), dtype="<f4").reshape(-1, classes))

    # Hop offsets each frame reads, relative to its first hop, and the slot each belongs to.
    first = min(a for a, _ in context)
    last = max(b for _, b in context)
    span = last - first + 1
    average = torch.zeros(len(context), span)
    for s, (a, b) in enumerate(context):
        average[s, a - first : b - first + 1] = 1.0 / (b - a + 1)

    train_keys, val_keys, kinds = [], [], {}
    for q in meta["sequences"]:
        base = np.arange(q["offset"], q["offset"] + q["count"] - pad, dtype=np.int64)
        starts = np.full_like(base, q["offset"])
        ends = np.full_like(base, q["offset"] + q["count"] - 1)
        (val_keys if q["validation"] else train_keys).append(np.stack([base, starts, ends], 1))
        kinds[q["kind"]] = kinds.get(q["kind"], 0) + len(base)
    train_keys = torch.from_numpy(np.concatenate(train_keys))
    val_keys = torch.from_numpy(np.concatenate(val_keys))
    offsets = torch.arange(first, last + 1)
    print(f"train.py: {len(train_keys)} training frames, {len(val_keys)} validation frames; by kind {kinds}", flush=True)

    def gather(keys, look):
        """Model input hops (B, span, dim) as HopHistory.assemble reads them."""
        base, start, end = keys[:, 0:1], keys[:, 1:2], keys[:, 2:3]
        newest = torch.minimum(base + frame_hops - 1 + look, end)
        idx = torch.minimum(torch.clamp(base + offsets, min=0).maximum(start), newest)
        return hops[idx], labels[keys[:, 0]]

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.projection = nn.Linear(dim, rows, bias=False)
            sizes = [len(context) * rows, *hidden, classes]
            self.layers = nn.ModuleList(nn.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:]))
            self.sizes = sizes

        def forward(self, x):
            z = self.projection(x)  # (B, span, rows)
            slots = torch.einsum("sh,bhr->bsr", average, z).reshape(x.shape[0], -1)
            for i, layer in enumerate(self.layers):
                slots = layer(slots)
                if i < len(self.layers) - 1:
                    slots = torch.relu(slots)
            return slots

    model = Model()
    batch = 1024
    steps = epochs * math.ceil(len(train_keys) / batch)
    optimiser = torch.optim.AdamW(model.parameters(), lr=4e-3, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=4e-3, total_steps=steps, pct_start=0.05)

    def evaluate():
        model.eval()
        correct, loss, n = 0, 0.0, 0
        with torch.no_grad():
            for i in range(0, len(val_keys), 8192):
                x, y = gather(val_keys[i : i + 8192], lookahead)
                logits = model(x)
                correct += (logits.argmax(1) == y.argmax(1)).sum().item()
                loss += -(y * torch.log_softmax(logits, 1)).sum().item()
                n += len(y)
        model.train()
        return correct / max(1, n), loss / max(1, n)

    best = (-1.0, 0, None)
    started = time.time()
    for epoch in range(1, epochs + 1):
        order = torch.from_numpy(rng.permutation(len(train_keys)))
        total = 0.0
        for i in range(0, len(order), batch):
            keys = train_keys[order[i : i + batch]]
            # Now and then less lookahead, so lookaheadMs < 20 degrades gracefully (as before).
            look = torch.where(torch.from_numpy(rng.random(len(keys)) < 0.1), 0, lookahead).unsqueeze(1)
            x, y = gather(keys, look)
            loss = -(y * torch.log_softmax(model(x), 1)).sum(1).mean()
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += loss.item() * len(keys)
        accuracy, val_loss = evaluate()
        print(
            f"train.py: epoch {epoch}/{epochs}: train loss {total / len(train_keys):.4f}, val loss {val_loss:.4f}, "
            f"val acc {100 * accuracy:.1f}% ({time.time() - started:.0f} s)",
            flush=True,
        )
        if accuracy > best[0]:
            best = (accuracy, epoch, {k: v.detach().clone() for k, v in model.state_dict().items()})

    state = best[2]
    parts = [state["projection.weight"].reshape(-1)]
    for i in range(len(model.layers)):
        parts += [state[f"layers.{i}.weight"].reshape(-1), state[f"layers.{i}.bias"].reshape(-1)]
    np.concatenate([p.numpy().astype("<f4") for p in parts]).tofile(os.path.join(dump, "params.f32"))
    result = {
        "layers": model.sizes,
        "projectionRows": rows,
        "bestEpoch": best[1],
        "validationFrameAccuracy": round(best[0], 4),
        "examples": {"train": len(train_keys), "validation": len(val_keys)},
        "torch": torch.__version__,
        "optimiser": f"AdamW lr 4e-3 one-cycle over {epochs} epochs, weight decay 1e-4, batch {batch}, soft-label cross-entropy",
    }
    with open(os.path.join(dump, "result.json"), "w", encoding="utf8") as f:
        json.dump(result, f)


if __name__ == "__main__":
    main()
