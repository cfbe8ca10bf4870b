"""The PyTorch twin of `jgrad train fashion`: the same nets, optimiser, batch, normalisation and evaluation.

For side-by-side runs of time per epoch, end-to-end time and peak memory (docs/performance.md):

    /usr/bin/time -v python3 bench/pytorch/fashion.py --model mlp --epochs 3 --threads 1

Reads the IDX files of `apt-get install dataset-fashion-mnist` (or --data DIR).
"""
import argparse
import gzip
import os
import struct
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

MEAN, STD = 0.2860, 0.3530


def idx(path):
    with gzip.open(path, "rb") as f:
        data = f.read()
    magic, = struct.unpack(">I", data[:4])
    dims = magic & 0xFF
    shape = struct.unpack(">" + "I" * dims, data[4:4 + 4 * dims])
    return torch.frombuffer(bytearray(data[4 + 4 * dims:]), dtype=torch.uint8).reshape(shape)


def load(folder, split):
    x = idx(os.path.join(folder, f"{split}-images-idx3-ubyte.gz")).float().div(255).sub(MEAN).div(STD).unsqueeze(1)
    y = idx(os.path.join(folder, f"{split}-labels-idx1-ubyte.gz")).long()
    return x, y


def build(kind):
    if kind == "mlp":
        return nn.Sequential(nn.Flatten(), nn.Linear(784, 256), nn.ReLU(), nn.Dropout(0.2),
                             nn.Linear(256, 128), nn.ReLU(), nn.Dropout(0.2), nn.Linear(128, 10))
    return nn.Sequential(
        nn.Conv2d(1, 32, 3, padding=1, bias=False), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(32, 64, 3, padding=1, bias=False), nn.BatchNorm2d(64), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(64 * 7 * 7, 128), nn.ReLU(), nn.Dropout(0.3), nn.Linear(128, 10))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--model", choices=["mlp", "cnn"], default="mlp")
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--batch", type=int, default=128)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--data", default="/usr/share/datasets/fashion-mnist")
    a = p.parse_args()
    started = time.perf_counter()
    torch.set_num_threads(a.threads)
    torch.manual_seed(0)
    xtr, ytr = load(a.data, "train")
    xte, yte = load(a.data, "t10k")
    model = build(a.model)
    opt = torch.optim.Adam(model.parameters(), lr=a.lr)
    for epoch in range(1, a.epochs + 1):
        t0 = time.perf_counter()
        model.train()
        order = torch.randperm(len(xtr))
        total, n = 0.0, 0
        for i in range(0, len(xtr), a.batch):
            idx_ = order[i:i + a.batch]
            opt.zero_grad()
            loss = F.cross_entropy(model(xtr[idx_]), ytr[idx_])
            loss.backward()
            opt.step()
            total += loss.item()
            n += 1
        model.eval()
        right, test_loss = 0, 0.0
        with torch.no_grad():
            for i in range(0, len(xte), a.batch):
                logits = model(xte[i:i + a.batch])
                test_loss += F.cross_entropy(logits, yte[i:i + a.batch], reduction="sum").item()
                right += (logits.argmax(1) == yte[i:i + a.batch]).sum().item()
        print(f"epoch {epoch}/{a.epochs}  train {total / n:.4f}  test {test_loss / len(xte):.4f}  "
              f"accuracy {100 * right / len(xte):.2f}% ({time.perf_counter() - t0:.1f} s)", flush=True)
    print(f"total {time.perf_counter() - started:.1f} s (after the interpreter and torch were loaded)")


if __name__ == "__main__":
    main()
