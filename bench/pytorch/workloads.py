#!/usr/bin/env python3
"""The benchmark workloads of DESIGN.md (W1-W13) in PyTorch, with the same keys and units as
`./jgrad bench --json`, for a side-by-side comparison on one machine.

usage: python3 bench/pytorch/workloads.py [--threads 1,2] [--quick] [--ops] > P.json   (--help says more)

--ops times the single ops of `./jgrad bench --only S1` (keys S1.<op>.us) instead of the workloads.

Each workload runs at each thread count (default: 1 and all cores; on 2 vCPUs PyTorch is often faster
with 1 thread, its OpenMP and OpenBLAS threads contending). The top-level keys hold each workload's
best (highest GFLOP/s, lowest time), "best_threads" the count that gave it, "by_threads" every run.

Needs torch: the comparison is with PyTorch 2.x as pip installs it, in a venv (docs/performance.md, "PyTorch 2 for
the comparison"). Where the python3 running it lacks torch but the system's /usr/bin/python3 has it (Debian's
python3-torch, PyTorch 1.13), the script re-runs itself with that one.
"""
import argparse
import json
import os
import statistics
import sys
import time

try:
    import torch
except ImportError:
    system = "/usr/bin/python3"
    if os.path.realpath(sys.executable) != os.path.realpath(system) and os.path.exists(system) \
            and os.environ.get("JGRAD_BENCH_REEXEC") != "1":
        os.environ["JGRAD_BENCH_REEXEC"] = "1"
        os.execv(system, [system] + sys.argv)
    sys.exit("workloads.py: torch is not installed (Debian: apt-get install python3-torch libopenblas0-pthread)")


def timed(fn, seconds, repeats):
    """Median seconds per call of fn over `repeats` batches, each running about `seconds`."""
    for _ in range(3):
        fn()
    t0 = time.perf_counter()
    n = 0
    while time.perf_counter() - t0 < 0.2:
        fn()
        n += 1
    per_batch = max(1, int(n * seconds / 0.2))
    samples = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(per_batch):
            fn()
        samples.append((time.perf_counter() - t0) / per_batch)
    return statistics.median(samples)


def mse_step(model, opt, x, y):
    """One whole training step on a fixed batch: zero the gradients, forward, MSE, backward, update (W5, W7)."""
    def step():
        opt.zero_grad()
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
    return step


def measure(threads, quick):
    """Every workload at `threads` threads: {key: value} in DESIGN.md's units."""
    torch.set_num_threads(threads)
    torch.manual_seed(0)
    seconds, repeats = (0.3, 5) if quick else (1.0, 7)
    out = {}

    for n in (128, 256, 512, 1024):
        a = torch.randn(n, n)
        b = torch.randn(n, n)
        t = timed(lambda: torch.matmul(a, b), seconds, repeats)
        out[f"W1.matmul.{n}.gflops"] = 2 * n ** 3 / t / 1e9

    x = torch.randn(1024, 1024)
    v = torch.randn(1024)
    out["W2.broadcast_add.1024x1024+1024.ms"] = timed(lambda: x + v, seconds, repeats) * 1e3
    p = torch.randn(256, 1, 64)
    q = torch.randn(1, 256, 64)
    out["W2.outer_sub.256x1x64-1x256x64.ms"] = timed(lambda: p - q, seconds, repeats) * 1e3
    out["W3.sum_dim1_keepdim.1024x1024.ms"] = timed(lambda: x.sum(dim=1, keepdim=True), seconds, repeats) * 1e3
    s = torch.randn(256, 1024)
    out["W4.softmax.256x1024.ms"] = timed(lambda: torch.softmax(s, dim=-1), seconds, repeats) * 1e3

    mlp = torch.nn.Sequential(torch.nn.Linear(64, 256), torch.nn.ReLU(), torch.nn.Linear(256, 256), torch.nn.ReLU(),
                              torch.nn.Linear(256, 1))
    adam = torch.optim.Adam(mlp.parameters(), lr=1e-3)
    mlp_step = mse_step(mlp, adam, torch.randn(64, 64), torch.randn(64, 1))
    out["W5.mlp_train_step.64-256-256-1.b64.ms"] = timed(mlp_step, seconds, repeats) * 1e3

    B, T, E, H = 8, 64, 128, 4
    mha = torch.nn.MultiheadAttention(E, H, batch_first=True)
    xa = torch.randn(B, T, E, requires_grad=True)
    lengths = torch.randint(T // 2, T + 1, (B,))
    kpm = torch.arange(T)[None, :] >= lengths[:, None]
    causal = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)

    def mha_step():
        y, _ = mha(xa, xa, xa, key_padding_mask=kpm, attn_mask=causal, need_weights=False)
        y.sum().backward()
    out["W6.mha_fwd_bwd.B8.T64.E128.H4.ms"] = timed(mha_step, seconds, repeats) * 1e3

    tiny = torch.nn.Sequential(torch.nn.Linear(2, 16), torch.nn.Tanh(), torch.nn.Linear(16, 1))
    sgd = torch.optim.SGD(tiny.parameters(), lr=0.01)
    tiny_step = mse_step(tiny, sgd, torch.randn(16, 2), torch.randn(16, 1))
    out["W7.tiny_mlp_train_step.2-16-1.b16.us"] = timed(tiny_step, seconds, repeats) * 1e6

    conv = torch.nn.Sequential(torch.nn.Conv2d(1, 32, 3), torch.nn.ReLU(), torch.nn.MaxPool2d(2), torch.nn.Conv2d(32, 64, 3))
    images = torch.randn(64, 1, 28, 28)

    def conv_step():
        conv(images).sum().backward()
    out["W8.conv_relu_pool_conv_fwd_bwd.b64.1x28x28.ms"] = timed(conv_step, seconds, repeats) * 1e3

    lstm = torch.nn.LSTM(64, 128)
    sequence = torch.randn(32, 32, 64)

    def lstm_step():
        lstm(sequence)[0].sum().backward()
    out["W9.lstm_fwd_bwd.64-128.T32.B32.ms"] = timed(lstm_step, seconds, repeats) * 1e3

    critic = torch.nn.Sequential(torch.nn.Linear(64, 256), torch.nn.Tanh(), torch.nn.Linear(256, 1))
    points = torch.randn(64, 64, requires_grad=True)

    def wgan_gp_step():
        d = critic(points)
        gx, = torch.autograd.grad(d.sum(), points, create_graph=True)
        penalty = ((gx.square().sum(1) + 1e-12).sqrt() - 1).square().mean()
        penalty.backward()
    out["W10.wgan_gp_penalty_grad.64-256-1.b64.ms"] = timed(wgan_gp_step, seconds, repeats) * 1e3

    mlp = torch.nn.Sequential(torch.nn.Linear(64, 256), torch.nn.Tanh(), torch.nn.Linear(256, 1))
    params = list(mlp.parameters())
    inputs, targets = torch.randn(64, 64), torch.randn(64, 1)
    vectors = [torch.randn_like(p) for p in params]

    def hvp_step():
        loss = torch.nn.functional.mse_loss(mlp(inputs), targets)
        grads = torch.autograd.grad(loss, params, create_graph=True)
        dot = sum((g * v).sum() for g, v in zip(grads, vectors))
        torch.autograd.grad(dot, params)
    out["W11.mlp_hvp.64-256-1.b64.ms"] = timed(hvp_step, seconds, repeats) * 1e3

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import nanogpt
    gpt = nanogpt.GPT(nanogpt.BABY)
    gpt_opt = gpt.configure_optimizers(0.1, 1e-3, (0.9, 0.99))
    tokens = torch.randint(65, (12, 65))
    gx, gy = tokens[:, :64].contiguous(), tokens[:, 1:].contiguous()

    def gpt_step():
        _, loss = gpt(gx, gy)
        gpt_opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(gpt.parameters(), 1.0)
        gpt_opt.step()
    out["W12.gpt_train_step.B12.T64.L4.H4.E128.ms"] = timed(gpt_step, seconds, repeats) * 1e3

    gpt.eval()
    prompt = torch.zeros((1, 1), dtype=torch.long)
    out["W13.gpt_generate.256_tokens.ms"] = timed(lambda: gpt.generate(prompt, 256), seconds, max(3, repeats // 2)) * 1e3
    return out


def single_ops(threads, quick):
    """The single ops of jgrad's SingleOps benchmark (`./jgrad bench --only S1`), same keys: {key: microseconds}."""
    torch.set_num_threads(threads)
    torch.manual_seed(1)
    seconds, repeats = (0.3, 5) if quick else (1.0, 7)
    x = torch.randn(768, 512)
    y = torch.randn(768, 512)
    positive = x.abs()
    mask = x > 0
    heads = torch.randn(12, 4, 64, 32)
    index = torch.randint(0, 512, (768, 8))
    soft = torch.softmax(x, 1)
    sig = x.sigmoid()
    ops = {
        "transpose_contiguous": lambda: x.t().contiguous(),
        "permute_contiguous": lambda: heads.permute(0, 2, 1, 3).contiguous(),
        "cat_dim0": lambda: torch.cat([x, y], 0),
        "flip_dim1": lambda: x.flip(1),
        "clone": lambda: x.clone(),
        "to_float64": lambda: x.to(torch.float64),
        "gt": lambda: x > y,
        "where": lambda: torch.where(mask, x, y),
        "clamp": lambda: x.clamp(-1.0, 1.0),
        "softmax_dim0": lambda: torch.softmax(x, 0),
        "logsumexp_dim1": lambda: x.logsumexp(1),
        "logsumexp_dim0": lambda: x.logsumexp(0),
        "sum_dim0": lambda: x.sum(0),
        "argmax_dim1": lambda: x.argmax(1),
        "prod_dim1": lambda: x.prod(1),
        "nonzero": lambda: mask.nonzero(),
        "masked_select": lambda: x.masked_select(mask),
        "log1p": lambda: positive.log1p(),
        "softplus": lambda: torch.nn.functional.softplus(x),
        "floor": lambda: x.floor(),
        "isnan": lambda: x.isnan(),
        "pow3": lambda: x.pow(3.0),
        "pow0_5": lambda: positive.pow(0.5),
        "pow2": lambda: x.pow(2.0),
        "sign": lambda: x.sign(),
        "amin": lambda: x.amin(),
        "masked_fill": lambda: x.masked_fill(mask, 0.0),
        "expand_contiguous": lambda: torch.ones(()).expand(768, 512).contiguous(),
        "gather": lambda: x.gather(1, index),
        "softmax_backward": lambda: torch.ops.aten._softmax_backward_data(y, soft, 1, torch.float32),
        "sigmoid_backward": lambda: torch.ops.aten.sigmoid_backward(y, sig),
        "sin": lambda: x.sin(),
        "cos": lambda: x.cos(),
        "expm1": lambda: x.expm1(),
        "atan2": lambda: torch.atan2(x, y),
        "round": lambda: x.round(),
        "leaky_relu": lambda: torch.nn.functional.leaky_relu(x, 0.01),
        "cumsum_dim1": lambda: x.cumsum(1),
        "sort_dim1": lambda: x.sort(1).values,
        "topk10": lambda: x.topk(10, 1).values,
    }
    return {f"S1.{name}.us": timed(fn, seconds, repeats) * 1e6 for name, fn in ops.items()}


def parse(argv):
    """The command line; --help prints the usage, a bad flag or thread count exits 2 naming it."""
    p = argparse.ArgumentParser(prog="workloads.py", description="DESIGN.md's workloads W1-W13 in PyTorch, "
                                "as JSON on stdout with the keys of `./jgrad bench --json`.")
    p.add_argument("--threads", default=None, metavar="1,2",
                   help="thread counts to run each workload at (default: 1 and all cores)")
    p.add_argument("--quick", action="store_true", help="fewer and shorter batches, as `./jgrad bench --quick`")
    p.add_argument("--ops", action="store_true",
                   help="time the single ops of `./jgrad bench --only S1` (keys S1.<op>.us) instead")
    args = p.parse_args(argv)
    cores = os.cpu_count() or 1
    if args.threads is None:
        args.counts = [1, cores] if cores > 1 else [1]
    else:
        try:
            args.counts = [int(t) for t in args.threads.split(",")]
        except ValueError:
            p.error(f"--threads {args.threads!r}: expected thread counts separated by commas, such as 1,2")
        if not args.counts or min(args.counts) < 1:
            p.error(f"--threads {args.threads!r}: each thread count must be at least 1")
    return args


def main(argv):
    args = parse(argv)
    quick = args.quick
    counts = args.counts
    run = single_ops if args.ops else measure
    by_threads = {str(t): run(t, quick) for t in counts}
    best, best_threads = {}, {}
    for t, run in by_threads.items():
        for key, value in run.items():
            if key not in best:
                better = True
            elif key.endswith(".gflops"):
                better = value > best[key]
            else:
                better = value < best[key]
            if better:
                best[key] = value
                best_threads[key] = int(t)
    out = dict(best)
    out["threads"] = counts
    out["best_threads"] = best_threads
    out["torch"] = torch.__version__
    out["python"] = sys.version.split()[0]
    out["mode"] = "quick" if quick else "full"
    out["by_threads"] = by_threads
    json.dump(out, sys.stdout, indent=2)
    print()


if __name__ == "__main__":
    main(sys.argv[1:])
