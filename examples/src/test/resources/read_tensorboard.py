"""Reads a run's tb/ folder with TensorBoard's own EventAccumulator and prints what it holds as JSON:
the scalars by tag as [step, value] pairs, the tags of histograms, images and tensors (texts), and the
hparams run's plugin tags. Used by TensorBoardIT where a Python with tensorboard is present."""
import json
import os
import sys

from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

def load(path):
    acc = EventAccumulator(path, size_guidance={"scalars": 0, "histograms": 0, "images": 0, "tensors": 0})
    acc.Reload()
    return acc

tb = sys.argv[1]
acc = load(tb)
tags = acc.Tags()
out = {
    "scalars": {t: [[e.step, e.value] for e in acc.Scalars(t)] for t in tags["scalars"]},
    "histograms": {t: [[e.step, e.histogram_value.num] for e in acc.Histograms(t)] for t in tags["histograms"]},
    "images": {t: [[e.step, e.width, e.height] for e in acc.Images(t)] for t in tags["images"]},
    "tensors": sorted(tags["tensors"]),
}
texts = {}
for t in tags["tensors"]:
    texts[t] = [[e.step, e.tensor_proto.string_val[0].decode("utf-8")] for e in acc.Tensors(t)]
out["texts"] = texts
hp = os.path.join(tb, "hparams")
if os.path.isdir(hp):
    h = load(hp)
    out["hparams"] = {"tensors": sorted(h.Tags()["tensors"]), "plugins": sorted(h.PluginTagToContent("hparams").keys()),
                      "scalars": {t: [[e.step, e.value] for e in h.Scalars(t)] for t in h.Tags()["scalars"]}}
print(json.dumps(out))
