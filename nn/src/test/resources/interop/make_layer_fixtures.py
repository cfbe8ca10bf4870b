"""Writes the layer interop fixtures (cnn.*, lstm.*, gru.*) that InteropTest reads.

Run with a Python that has PyTorch 1.13 (Debian: apt-get install python3-torch, then /usr/bin/python3):
    /usr/bin/python3 nn/src/test/resources/interop/make_layer_fixtures.py nn/src/test/resources/interop
Each model is trained for a few steps so that batch norm's running statistics and num_batches_tracked
are not their initial values, then its state dict is written as safetensors (PyTorch's names, the
header in state-dict order with __metadata__ last, as jgrad writes it) beside a JSON file with an
input and the outputs PyTorch computed for it.
"""
import json
import struct
import sys

import torch
from torch import nn

CODES = {torch.float32: "F32", torch.float64: "F64", torch.int64: "I64", torch.bool: "BOOL"}


def save_safetensors(path, state, metadata):
    header, blobs, offset = {}, [], 0
    for name, t in state.items():
        raw = t.detach().contiguous().cpu().numpy().tobytes()
        header[name] = {"dtype": CODES[t.dtype], "shape": list(t.shape), "data_offsets": [offset, offset + len(raw)]}
        blobs.append(raw)
        offset += len(raw)
    header["__metadata__"] = metadata
    text = json.dumps(header, separators=(",", ":")).encode("utf-8")
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for b in blobs:
            f.write(b)


def spec(t):
    t = t.detach()
    dtype = {torch.float32: "float32", torch.float64: "float64", torch.int64: "int64", torch.bool: "bool"}[t.dtype]
    return {"dtype": dtype, "shape": list(t.shape), "data": t.flatten().tolist()}


def train(model, make_batch, loss_of, steps):
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for _ in range(steps):
        opt.zero_grad()
        loss_of(model, make_batch()).backward()
        opt.step()


def cnn(out):
    arch = ("Sequential(Conv2d(1,4,3,padding=1), BatchNorm2d(4), ReLU(), MaxPool2d(2), Conv2d(4,6,3,bias=False), "
            "BatchNorm2d(6, momentum=0.3), ReLU(), MaxPool2d(2, ceil_mode=True), Flatten(), Linear(12,5))")
    model = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(), nn.MaxPool2d(2),
                          nn.Conv2d(4, 6, 3, bias=False), nn.BatchNorm2d(6, momentum=0.3), nn.ReLU(),
                          nn.MaxPool2d(2, ceil_mode=True), nn.Flatten(), nn.Linear(12, 5))
    train(model, lambda: (torch.randn(8, 1, 10, 9), torch.randint(0, 5, (8,))),
          lambda m, b: nn.functional.cross_entropy(m(b[0]), b[1]), 4)
    x = torch.randn(3, 1, 10, 9)
    model.eval()
    with torch.no_grad():
        y_eval = model(x)
    saved = {k: v.clone() for k, v in model.state_dict().items()}
    model.train()
    with torch.no_grad():
        y_train = model(x)
    save_safetensors(f"{out}/cnn.safetensors", saved, {"architecture": arch})
    json.dump({"architecture": arch, "input": spec(x), "eval_output": spec(y_eval), "train_output": spec(y_train),
               "running_mean_after_train_forward": spec(model[1].running_mean),
               "running_var_after_train_forward": spec(model[5].running_var),
               "num_batches_tracked_after_train_forward": int(model[1].num_batches_tracked)},
              open(f"{out}/cnn.json", "w"))


class RecurrentHead(nn.Module):
    def __init__(self, rnn, hidden, classes):
        super().__init__()
        self.rnn = rnn
        self.head = nn.Linear(hidden, classes)

    def forward(self, x):
        y, state = self.rnn(x)
        return y, state, self.head(y)


def recurrent(out, name, rnn, hidden, x_shape, arch):
    model = RecurrentHead(rnn, hidden, 3)
    train(model, lambda: torch.randn(*x_shape), lambda m, x: m(x)[2].pow(2).mean(), 3)
    model.eval()
    x = torch.randn(*x_shape)
    with torch.no_grad():
        y, state, logits = model(x)
    result = {"architecture": arch, "input": spec(x), "output": spec(y), "logits": spec(logits)}
    if isinstance(state, tuple):
        result["h_n"], result["c_n"] = spec(state[0]), spec(state[1])
    else:
        result["h_n"] = spec(state)
    save_safetensors(f"{out}/{name}.safetensors", model.state_dict(), {"architecture": arch})
    json.dump(result, open(f"{out}/{name}.json", "w"))


def main(out):
    torch.manual_seed(1234)
    cnn(out)
    recurrent(out, "lstm", nn.LSTM(5, 7, num_layers=2, batch_first=True), 7, (2, 4, 5),
              "rnn=LSTM(5, 7, num_layers=2, batch_first=True), head=Linear(7, 3) on every output; input (B=2, T=4, 5)")
    recurrent(out, "gru", nn.GRU(5, 6), 6, (4, 2, 5),
              "rnn=GRU(5, 6), head=Linear(6, 3) on every output; input (T=4, B=2, 5)")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
