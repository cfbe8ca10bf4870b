#!/usr/bin/env python3
"""The second half of a twin run: nanoGPT's model trained by PyTorch from jgrad's initial weights on jgrad's batches.

`dev.jgrad.bench.GptTwin` trains the baby GPT in jgrad and writes its initial weights, each step's batch starts and its
losses into a folder; this script trains nanoGPT's model.py (bench/pytorch/nanogpt.py) with train.py's optimiser,
schedule and clipping from the same weights on the same batches, and compares the two runs step by step. With the
randomness shared, what is left is float rounding: the two libraries' losses should agree to a few units in the
fifth decimal over the whole run, where runs from different seeds differ by hundredths.

usage: python3 bench/pytorch/gpt_twin.py --data input.txt [--threads N] DIR
Prints every 200th step of both runs, the largest difference, and exits 1 when it is 1e-3 or more.
"""
import os
import sys

import torch

from nanogpt import BABY, GPT, get_lr, load_safetensors, shakespeare_char, train_step


def main(argv):
    if "--data" not in argv or len(argv) < 3:
        sys.exit(__doc__)
    data_path = argv[argv.index("--data") + 1]
    threads = int(argv[argv.index("--threads") + 1]) if "--threads" in argv else 2
    folder = argv[-1]
    torch.set_num_threads(threads)
    vocab_size, train_data, _ = shakespeare_char(data_path)
    with open(os.path.join(folder, "batches.txt")) as f:
        batches = [[int(v) for v in line.split()] for line in f if line.strip()]
    with open(os.path.join(folder, "jgrad.tsv")) as f:
        theirs = [float(line.split("\t")[1]) for line in f.readlines()[1:]]
    model = GPT(dict(BABY, vocab_size=vocab_size))
    model.load_state_dict(load_safetensors(os.path.join(folder, "init.safetensors"), model), strict=True)
    opt = model.configure_optimizers(0.1, 1e-3, (0.9, 0.99))
    block = BABY["block_size"]
    worst, worst_step = 0.0, 0
    print("step  jgrad     PyTorch   difference")
    for it, starts in enumerate(batches):
        x = torch.stack([train_data[i:i + block] for i in starts])
        y = torch.stack([train_data[i + 1:i + 1 + block] for i in starts])
        loss = train_step(model, opt, x, y, get_lr(it))
        diff = abs(loss.item() - theirs[it])
        if diff > worst:
            worst, worst_step = diff, it
        if it % 200 == 0 or it == len(batches) - 1:
            print(f"{it:4d}  {theirs[it]:.6f}  {loss.item():.6f}  {diff:.1e}", flush=True)
    print(f"largest difference over {len(batches)} steps: {worst:.1e} (step {worst_step})")
    sys.exit(0 if worst < 1e-3 else 1)


if __name__ == "__main__":
    main(sys.argv[1:])
