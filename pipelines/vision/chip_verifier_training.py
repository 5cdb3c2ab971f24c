"""Train the chip verifier (a small CNN in PyTorch, on CPU in minutes) and export it to ONNX.

A YOLO classifier's training augments by random resized crops, which would move the chip off the
crop's centre, and the centre is the whole question ("is there a chip *here*"); so this is a plain net
with augmentations that keep the centre: quarter turns, flips, brightness and contrast, sensor noise.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
from tqdm import tqdm

from .chip_verifier_data import VERIFIER_CLASSES, VERIFIER_IMGSZ, labels_from_truth


def _net():
    from torch import nn

    def block(cin: int, cout: int) -> list:
        return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
                nn.Conv2d(cout, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
                nn.MaxPool2d(2)]

    # Flattened, not pooled, at the end: where in the crop a chip's edge lies is the answer.
    side = VERIFIER_IMGSZ // 8
    return nn.Sequential(*block(3, 16), *block(16, 32), *block(32, 64), nn.Flatten(),
                         nn.Linear(64 * side * side, 96), nn.ReLU(inplace=True), nn.Dropout(0.2),
                         nn.Linear(96, len(VERIFIER_CLASSES)))


EASY_CONF = 0.8  # detector boxes at or above this are right 99 %+ of the time: a few of them suffice
EASY_KEEP = 0.3
PAST_TOP_KEEP = 1.0  # share of generator 4's past-top boxes kept (source 3)


def load_crops(files: list[Path], easy_keep: float = EASY_KEEP, seed: int = 0,
               past_top_keep: float = PAST_TOP_KEEP) -> dict[str, np.ndarray]:
    """The crops of `files` together, labelled from their stored distances to the truth (ambiguous ones
    left out), keeping `easy_keep` of the detector's confident boxes and `past_top_keep` of the past-top boxes."""
    parts = [np.load(f) for f in files]
    data = {k: np.concatenate([p[k] for p in parts]) for k in parts[0].files}
    if "d_shown" in data:
        data["y"] = labels_from_truth(data["d_shown"], data["value"], data["d_all"], matched=data.get("matched"))
    easy = (data["source"] == 0) & (data["conf"] >= EASY_CONF)
    draw = np.random.default_rng(seed).random(len(easy))
    keep = (data["y"] >= 0) & (~easy | (draw < easy_keep)) & ((data["source"] != 3) | (draw < past_top_keep))
    return {k: v[keep] for k, v in data.items()}


def _augment(x, gen):
    import torch

    k = int(torch.randint(0, 4, (1,), generator=gen))
    x = torch.rot90(x, k, dims=(2, 3))
    if torch.rand(1, generator=gen) < 0.5:
        x = x.flip(3)
    n = x.shape[0]
    gain = 1 + 0.25 * (torch.rand(n, 1, 1, 1, generator=gen) - 0.5)
    bias = 0.1 * (torch.rand(n, 1, 1, 1, generator=gen) - 0.5)
    noise = 0.02 * torch.randn(x.shape, generator=gen)
    return (x * gain + bias + noise).clamp(0, 1)


def _tensor(x: np.ndarray):
    import torch

    # BGR uint8 (N, H, W, 3) -> float (N, 3, H, W), the layout the ONNX model takes at run time.
    return torch.from_numpy(np.ascontiguousarray(x.transpose(0, 3, 1, 2))).float() / 255.0


def predict(model, x: np.ndarray, batch: int = 1024) -> np.ndarray:
    import torch

    model.eval()
    out = []
    with torch.no_grad():
        for a in range(0, len(x), batch):
            out.append(torch.softmax(model(_tensor(x[a:a + batch])), 1).numpy())
    return np.concatenate(out) if out else np.zeros((0, len(VERIFIER_CLASSES)))


def train_verifier(train: dict[str, np.ndarray], val: dict[str, np.ndarray], epochs: int, out: Path,
                   batch: int = 256, seed: int = 0, progress: bool = True) -> dict:
    """Train, keep the epoch with the best validation loss, export `out` (.onnx) and `out`.pt."""
    import torch
    from torch import nn

    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    model = _net()
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-4)
    steps = epochs * ((len(train["y"]) + batch - 1) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=2e-3, total_steps=steps)
    loss_fn = nn.CrossEntropyLoss()
    y_all = torch.from_numpy(train["y"].astype(np.int64))
    best, history, t0 = None, [], time.perf_counter()
    for epoch in range(epochs):
        model.train()
        order = torch.randperm(len(y_all), generator=gen)
        bar = tqdm(range(0, len(order), batch), desc=f"verifier epoch {epoch + 1}/{epochs}", disable=not progress)
        for a in bar:
            idx = order[a:a + batch].numpy()
            x = _augment(_tensor(train["x"][idx]), gen)
            loss = loss_fn(model(x), y_all[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            bar.set_postfix(loss=f"{loss.item():.3f}")
        probs = predict(model, val["x"])
        val_loss = float(-np.log(probs[np.arange(len(probs)), val["y"]] + 1e-9).mean())
        acc = float((probs.argmax(1) == val["y"]).mean())
        history.append({"epoch": epoch + 1, "val_loss": round(val_loss, 4), "val_acc": round(acc, 4)})
        if best is None or val_loss < best[0]:
            best = (val_loss, {k: v.clone() for k, v in model.state_dict().items()})
    model.load_state_dict(best[1])
    model.eval()
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.save(model.state_dict(), out.with_suffix(".pt"))
    export_onnx(model, out)
    # which labelling the crops carry (chip_verifier_data): pairing with the chips, or distances alone
    labels = "paired" if "matched" in train else "distances"
    report = {"train_crops": len(train["y"]), "val_crops": len(val["y"]), "epochs": epochs, "labels": labels,
              "train_s": round(time.perf_counter() - t0, 1), "history": history}
    out.with_name(out.stem + "_report.json").write_text(json.dumps(report, indent=2))
    return report


def export_onnx(model, path: Path) -> None:
    import onnx
    import torch

    dummy = torch.zeros(1, 3, VERIFIER_IMGSZ, VERIFIER_IMGSZ)
    torch.onnx.export(torch.nn.Sequential(model, torch.nn.Softmax(1)), dummy, str(path), input_names=["images"],
                      output_names=["probs"], dynamic_axes={"images": {0: "n"}, "probs": {0: "n"}},
                      opset_version=17, dynamo=False)
    m = onnx.load(str(path))
    # The class order travels with the weights, as ultralytics does it for the other two models.
    entry = m.metadata_props.add()
    entry.key, entry.value = "names", repr(dict(enumerate(VERIFIER_CLASSES)))
    onnx.save(m, str(path))
