#!/usr/bin/env python3
"""Side-by-side table of a jgrad run and a PyTorch run of the same workloads, each at its best thread count.

usage: python3 bench/compare.py B.json P.json     (B from ./jgrad bench --json, P from bench/pytorch/workloads.py)

Prints a Markdown table: jgrad, PyTorch, the thread count each was best at, and the ratio jgrad / PyTorch
(for W1, in GFLOP/s, PyTorch / jgrad, so that below 1 always means jgrad is faster).
"""
import json
import sys


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__.strip().splitlines()[2])
    ours, theirs = (json.load(open(f)) for f in argv)
    print("| workload | jgrad | threads | PyTorch | threads | time ratio jgrad / PyTorch |")
    print("|---|---:|---:|---:|---:|---:|")
    for key, value in ours.items():
        # jgrad's ".scoped" variants (one Memory.scope() per call) are compared with PyTorch's plain op.
        their_key = key.replace(".scoped.", ".")
        if not key.startswith("W") or not isinstance(value, float) or their_key not in theirs:
            continue
        other = theirs[their_key]
        ratio = other / value if key.endswith(".gflops") else value / other
        print(f"| {key} | {value:.4g} | {ours.get('best_threads', {}).get(key, '?')} | {other:.4g} | "
              f"{theirs.get('best_threads', {}).get(their_key, '?')} | {ratio:.2f} |")


if __name__ == "__main__":
    main(sys.argv[1:])
