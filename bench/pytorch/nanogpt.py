#!/usr/bin/env python3
"""nanoGPT's model and its CPU run of shakespeare_char, in one file, for measuring beside `./jgrad train gpt`.

The model is nanoGPT's `model.py` (Karpathy, MIT licence): LayerNorm with an optional bias, causal self-attention
(PyTorch 2's scaled_dot_product_attention with is_causal, as model.py's "flash" path, where it exists; an explicit mask
on 1.13, which has none), exact GELU, lm_head tied to wte, nanoGPT's initialisation and `configure_optimizers` (AdamW, decay on the 2-d weights only), and `generate`
(no key/value cache, the context cropped to the block). The loop is `train.py`'s for its CPU command line:

  python train.py config/train_shakespeare_char.py --device=cpu --compile=False --eval_iters=20 --log_interval=1
      --block_size=64 --batch_size=12 --n_layer=4 --n_head=4 --n_embd=128 --max_iters=2000 --lr_decay_iters=2000
      --dropout=0.0

usage: python3 bench/pytorch/nanogpt.py --data input.txt [--threads N] [--max-iters N] [--seed S] [--init jgrad.safetensors]
       [--save final.pt] [--save-best best.pt] [--compile]
--compile runs the model through torch.compile (PyTorch 2; it needs a C compiler), as train.py's --compile=True.
It prints the evaluations as nanoGPT does and, last, one JSON line: val loss, train loss, seconds, ms per iteration.
--save writes the final model's state dict (torch.save), which `full_val_loss.py` evaluates beside jgrad's runs;
--save-best the model of the best evaluation after the first, which is what train.py keeps (its shakespeare_char
config has always_save_checkpoint = False) and what `./jgrad train gpt` keeps.
`workloads.py` imports GPT from here for W12 and W13.
"""
import argparse
import json
import math
import sys
import time

import torch
import torch.nn as nn
from torch.nn import functional as F


class LayerNorm(nn.Module):
    def __init__(self, ndim, bias):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(ndim))
        self.bias = nn.Parameter(torch.zeros(ndim)) if bias else None

    def forward(self, x):
        return F.layer_norm(x, self.weight.shape, self.weight, self.bias, 1e-5)


class CausalSelfAttention(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.c_attn = nn.Linear(c["n_embd"], 3 * c["n_embd"], bias=c["bias"])
        self.c_proj = nn.Linear(c["n_embd"], c["n_embd"], bias=c["bias"])
        self.attn_dropout = nn.Dropout(c["dropout"])
        self.resid_dropout = nn.Dropout(c["dropout"])
        self.n_head = c["n_head"]
        self.n_embd = c["n_embd"]
        bs = c["block_size"]
        self.dropout = c["dropout"]
        self.flash = hasattr(F, "scaled_dot_product_attention")
        self.register_buffer("bias", torch.tril(torch.ones(bs, bs)).view(1, 1, bs, bs))

    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(self.n_embd, dim=2)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        if self.flash:
            y = F.scaled_dot_product_attention(q, k, v, attn_mask=None, dropout_p=self.dropout if self.training else 0, is_causal=True)
            y = y.transpose(1, 2).contiguous().view(B, T, C)
            return self.resid_dropout(self.c_proj(y))
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float("-inf"))
        att = F.softmax(att, dim=-1)
        att = self.attn_dropout(att)
        y = att @ v
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.resid_dropout(self.c_proj(y))


class MLP(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.c_fc = nn.Linear(c["n_embd"], 4 * c["n_embd"], bias=c["bias"])
        self.gelu = nn.GELU()
        self.c_proj = nn.Linear(4 * c["n_embd"], c["n_embd"], bias=c["bias"])
        self.dropout = nn.Dropout(c["dropout"])

    def forward(self, x):
        return self.dropout(self.c_proj(self.gelu(self.c_fc(x))))


class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.ln_1 = LayerNorm(c["n_embd"], c["bias"])
        self.attn = CausalSelfAttention(c)
        self.ln_2 = LayerNorm(c["n_embd"], c["bias"])
        self.mlp = MLP(c)

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class GPT(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.c = c
        self.transformer = nn.ModuleDict(dict(
            wte=nn.Embedding(c["vocab_size"], c["n_embd"]),
            wpe=nn.Embedding(c["block_size"], c["n_embd"]),
            drop=nn.Dropout(c["dropout"]),
            h=nn.ModuleList([Block(c) for _ in range(c["n_layer"])]),
            ln_f=LayerNorm(c["n_embd"], c["bias"]),
        ))
        self.lm_head = nn.Linear(c["n_embd"], c["vocab_size"], bias=False)
        self.transformer.wte.weight = self.lm_head.weight
        self.apply(self._init_weights)
        for pn, p in self.named_parameters():
            if pn.endswith("c_proj.weight"):
                torch.nn.init.normal_(p, mean=0.0, std=0.02 / math.sqrt(2 * c["n_layer"]))

    def _init_weights(self, module):
        if isinstance(module, nn.Linear):
            torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)
            if module.bias is not None:
                torch.nn.init.zeros_(module.bias)
        elif isinstance(module, nn.Embedding):
            torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)

    def forward(self, idx, targets=None):
        t = idx.size(1)
        pos = torch.arange(0, t, dtype=torch.long)
        x = self.transformer.drop(self.transformer.wte(idx) + self.transformer.wpe(pos))
        for block in self.transformer.h:
            x = block(x)
        x = self.transformer.ln_f(x)
        if targets is not None:
            logits = self.lm_head(x)
            return logits, F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1), ignore_index=-1)
        return self.lm_head(x[:, [-1], :]), None

    def configure_optimizers(self, weight_decay, learning_rate, betas):
        params = [p for p in self.parameters() if p.requires_grad]
        decay = [p for p in params if p.dim() >= 2]
        nodecay = [p for p in params if p.dim() < 2]
        groups = [{"params": decay, "weight_decay": weight_decay}, {"params": nodecay, "weight_decay": 0.0}]
        return torch.optim.AdamW(groups, lr=learning_rate, betas=betas)

    @torch.no_grad()
    def generate(self, idx, max_new_tokens, temperature=1.0, top_k=None):
        for _ in range(max_new_tokens):
            idx_cond = idx if idx.size(1) <= self.c["block_size"] else idx[:, -self.c["block_size"]:]
            logits, _ = self(idx_cond)
            logits = logits[:, -1, :] / temperature
            if top_k is not None:
                v, _ = torch.topk(logits, min(top_k, logits.size(-1)))
                logits[logits < v[:, [-1]]] = -float("Inf")
            probs = F.softmax(logits, dim=-1)
            idx = torch.cat((idx, torch.multinomial(probs, num_samples=1)), dim=1)
        return idx


def load_safetensors(path, model):
    """A state dict jgrad saved (lm_head tied to wte and left out, no mask buffers) for `model`."""
    import struct
    raw = open(path, "rb").read()
    n = struct.unpack("<Q", raw[:8])[0]
    header = json.loads(raw[8:8 + n])
    sd = {}
    for k, v in header.items():
        if k != "__metadata__":
            s, e = v["data_offsets"]
            sd[k] = torch.frombuffer(bytearray(raw[8 + n + s:8 + n + e]), dtype=torch.float32).reshape(v["shape"])
    sd["lm_head.weight"] = sd["transformer.wte.weight"]
    for k, t in model.state_dict().items():
        if k.endswith("attn.bias"):
            sd[k] = t
    return sd


BABY = dict(block_size=64, vocab_size=65, n_layer=4, n_head=4, n_embd=128, dropout=0.0, bias=False)


def shakespeare_char(path):
    """nanoGPT's prepare.py for a text: its characters sorted as the vocabulary, the text as their indices, 90/10 split."""
    text = open(path, encoding="utf-8").read()
    chars = sorted(set(text))
    stoi = {ch: i for i, ch in enumerate(chars)}
    data = torch.tensor([stoi[c] for c in text], dtype=torch.long)
    n = int(0.9 * len(data))
    return len(chars), data[:n], data[n:]


def get_lr(it, lr=1e-3, min_lr=1e-4, warmup=100, decay_iters=2000):
    """train.py's learning rate at iteration `it`: linear warm-up, cosine decay to min_lr, then min_lr."""
    if it < warmup:
        return lr * (it + 1) / (warmup + 1)
    if it > decay_iters:
        return min_lr
    ratio = (it - warmup) / (decay_iters - warmup)
    return min_lr + 0.5 * (1.0 + math.cos(math.pi * ratio)) * (lr - min_lr)


def train_step(model, opt, x, y, lr):
    """One iteration of train.py's loop at learning rate `lr`: forward, backward, clipping to norm 1, AdamW; the loss."""
    for g in opt.param_groups:
        g["lr"] = lr
    _, loss = model(x, y)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    return loss


def parse(argv):
    """The command line; --help prints the usage, a missing --data or a bad number exits 2 naming the flag."""
    p = argparse.ArgumentParser(prog="nanogpt.py", description="nanoGPT's baby GPT on shakespeare_char, train.py's CPU "
                                "loop, for measuring beside `./jgrad train gpt`.")
    p.add_argument("--data", required=True, help="the text to train on (tinyshakespeare's input.txt)")
    p.add_argument("--threads", type=int, default=1, help="PyTorch's threads (default 1)")
    p.add_argument("--max-iters", type=int, default=2000, help="training iterations (default 2000)")
    p.add_argument("--seed", type=int, default=1337, help="torch.manual_seed (default 1337)")
    p.add_argument("--init", help="start from these weights (a safetensors file jgrad wrote)")
    p.add_argument("--save", help="write the final model's state dict here (torch.save)")
    p.add_argument("--save-best", help="write the model of the best evaluation after the first here")
    p.add_argument("--compile", action="store_true", help="run the model through torch.compile")
    args = p.parse_args(argv)
    if args.threads < 1 or args.max_iters < 1:
        p.error("--threads and --max-iters must be at least 1")
    return args


def main(argv):
    args = parse(argv)
    data_path, threads, max_iters, seed = args.data, args.threads, args.max_iters, args.seed
    torch.set_num_threads(threads)
    torch.manual_seed(seed)
    started = time.perf_counter()
    vocab_size, train_data, val_data = shakespeare_char(data_path)
    config = dict(BABY, vocab_size=vocab_size)
    block, batch, eval_iters, eval_interval = config["block_size"], 12, 20, 250
    lr, min_lr, warmup, decay_iters = 1e-3, 1e-4, 100, max_iters

    def get_batch(split):
        d = train_data if split == "train" else val_data
        ix = torch.randint(len(d) - block, (batch,))
        return torch.stack([d[i:i + block] for i in ix]), torch.stack([d[i + 1:i + 1 + block] for i in ix])

    @torch.no_grad()
    def estimate_loss():
        out = {}
        model.eval()
        for split in ["train", "val"]:
            losses = torch.zeros(eval_iters)
            for k in range(eval_iters):
                x, y = get_batch(split)
                losses[k] = model(x, y)[1].item()
            out[split] = losses.mean().item()
        model.train()
        return out

    model = GPT(config)
    if args.init:
        model.load_state_dict(load_safetensors(args.init, model), strict=True)
    opt = model.configure_optimizers(0.1, lr, (0.9, 0.99))
    raw_model = model
    if args.compile:
        model = torch.compile(model)
    losses = {}
    best_val, best_state, best_iter = float("inf"), None, None
    loop_started = time.perf_counter()
    for it in range(max_iters + 1):
        if it % eval_interval == 0 or it == max_iters:
            losses = estimate_loss()
            print(f"step {it}: train loss {losses['train']:.4f}, val loss {losses['val']:.4f}", flush=True)
            if it > 0 and losses["val"] < best_val and args.save_best:
                best_val, best_iter = losses["val"], it
                best_state = {k: v.detach().clone() for k, v in raw_model.state_dict().items()}
        if it == max_iters:
            break
        x, y = get_batch("train")
        train_step(model, opt, x, y, get_lr(it, lr, min_lr, warmup, decay_iters))
    seconds = time.perf_counter() - started
    if args.save:
        torch.save(raw_model.state_dict(), args.save)
    if best_state is not None:
        torch.save(best_state, args.save_best)
        print(f"saved the model of step {best_iter} (val {best_val:.4f}) to {args.save_best}")
    print(json.dumps({"val_loss": losses["val"], "train_loss": losses["train"], "iterations": max_iters, "seconds": round(seconds, 1),
                      "ms_per_iteration": round(1000 * (time.perf_counter() - loop_started) / max(1, max_iters), 2),
                      "threads": threads, "torch": torch.__version__, "compiled": args.compile}))


if __name__ == "__main__":
    main(sys.argv[1:])
