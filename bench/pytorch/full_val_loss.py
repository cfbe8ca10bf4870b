#!/usr/bin/env python3
"""The loss of trained baby GPTs over the whole validation text, not 20 random batches.

nanoGPT's `estimate_loss` (and `./jgrad train gpt`, which copies it) averages 20 random batches of 12 windows: its
value for one model moves by about 0.02 from one draw of batches to another, as much as two runs differ. This script
scores every model on the same windows: all the non-overlapping windows of the validation part (90/10 split), and
3000 windows of the training part drawn once with a fixed seed.

usage: python3 bench/pytorch/full_val_loss.py --data input.txt MODEL...
  MODEL is a jgrad run folder (its model.safetensors; the iteration it was saved at is printed) or a state dict that
  `nanogpt.py --save` wrote. One line per model: its validation and training loss.
"""
import json
import os
import struct
import sys

import torch

from nanogpt import BABY, GPT, load_safetensors, shakespeare_char


def windows(n, block, count=None):
    starts = list(range(0, n - block - 1, block))
    if count is not None and count < len(starts):
        order = torch.randperm(len(starts), generator=torch.Generator().manual_seed(0))[:count]
        starts = [starts[i] for i in order.tolist()]
    return starts


@torch.no_grad()
def mean_loss(model, data, starts, block):
    total = 0.0
    for b in range(0, len(starts), 64):
        part = starts[b:b + 64]
        x = torch.stack([data[i:i + block] for i in part])
        y = torch.stack([data[i + 1:i + 1 + block] for i in part])
        total += model(x, y)[1].item() * len(part)
    return total / len(starts)


def load(path, config):
    model = GPT(config)
    if os.path.isdir(path):
        file = os.path.join(path, "model.safetensors")
        raw = open(file, "rb").read(8)
        header = json.loads(open(file, "rb").read(8 + struct.unpack("<Q", raw)[0])[8:])
        model.load_state_dict(load_safetensors(file, model), strict=True)
        meta = header.get("__metadata__", {})
        # Runs through jgrad's training loop record their step as jgrad.step; older runs as iteration.
        return model, "iteration " + meta.get("jgrad.step", meta.get("iteration", "?"))
    model.load_state_dict(torch.load(path), strict=True)
    return model, "final"


def main(argv):
    data_path = argv[argv.index("--data") + 1]
    models = [a for i, a in enumerate(argv) if a != "--data" and (i == 0 or argv[i - 1] != "--data")]
    vocab_size, train, val = shakespeare_char(data_path)
    config = dict(BABY, vocab_size=vocab_size)
    block = config["block_size"]
    val_starts, train_starts = windows(len(val), block), windows(len(train), block, 3000)
    for path in models:
        model, when = load(path, config)
        model.eval()
        print(f"{path} ({when}): val {mean_loss(model, val, val_starts, block):.4f} over {len(val_starts)} windows,"
              f" train {mean_loss(model, train, train_starts, block):.4f} over {len(train_starts)}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
