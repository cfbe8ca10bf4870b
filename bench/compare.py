#!/usr/bin/env python3
"""Side-by-side table of jgrad runs and PyTorch runs of the same workloads, each at its best thread count.

usage: python3 bench/compare.py B.json P.json [B2.json P2.json ...]
       (each B from ./jgrad bench --json, each P from bench/pytorch/workloads.py, run one after the other)

Prints a Markdown table: jgrad, PyTorch, the thread count each was best at, and the ratio jgrad / PyTorch
(for W1, in GFLOP/s, PyTorch / jgrad, so that below 1 always means jgrad is faster). With several pairs,
each ratio is taken within its own pair (the two sides of one pair ran minutes apart, on the same machine
state), and the table shows the median of the ratios and their range, beside the first pair's numbers.
"""
import json
import statistics
import sys


def ratios(ours, theirs):
    """{key: (jgrad value, PyTorch value, ratio)} for the workloads both runs measured."""
    out = {}
    for key, value in ours.items():
        # jgrad's ".scoped" variants (one Memory.scope() per call) are compared with PyTorch's plain op.
        their_key = key.replace(".scoped.", ".")
        if not key.startswith(("W", "S1.")) or not isinstance(value, float) or their_key not in theirs:
            continue
        other = theirs[their_key]
        out[key] = (value, other, other / value if key.endswith(".gflops") else value / other)
    return out


def main(argv):
    if not argv or len(argv) % 2:
        sys.exit(__doc__.strip().splitlines()[2])
    runs = [json.load(open(f)) for f in argv]
    pairs = [(runs[i], runs[i + 1]) for i in range(0, len(runs), 2)]
    tables = [ratios(ours, theirs) for ours, theirs in pairs]
    ours, theirs = pairs[0]
    several = len(pairs) > 1
    print("| workload | jgrad | threads | PyTorch | threads | time ratio jgrad / PyTorch |"
          + (f" median of {len(pairs)} pairs (range) |" if several else ""))
    print("|---|---:|---:|---:|---:|---:|" + ("---:|" if several else ""))
    for key, (value, other, ratio) in tables[0].items():
        their_key = key.replace(".scoped.", ".")
        line = (f"| {key} | {value:.4g} | {ours.get('best_threads', {}).get(key, '?')} | {other:.4g} | "
                f"{theirs.get('best_threads', {}).get(their_key, '?')} | {ratio:.2f} |")
        if several:
            all_ratios = [t[key][2] for t in tables if key in t]
            line += f" {statistics.median(all_ratios):.2f} ({min(all_ratios):.2f}-{max(all_ratios):.2f}) |"
        print(line)


if __name__ == "__main__":
    main(sys.argv[1:])
