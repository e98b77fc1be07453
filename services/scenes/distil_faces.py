"""Distil the dice face classifier into a narrower network (an experiment, not shipped: the
vision README, "Tried in stop 28", gives what it read).

The student is trained to the shipped network's class probabilities (the teacher,
services/vision/dice/faces.onnx run by ONNX Runtime), not to the crops' labels: the reader's
thresholds were chosen on the teacher's probabilities, so a faster network is only of use if
it says what the teacher says. The loss is the KL divergence from the teacher plus the
squared difference of the log-probabilities (the tails carry the thresholds: a 0.97 against
a 0.98). Three quarters of each batch are the crops only turned or mirrored (what the reader
shows the network), a quarter augmented as for training (train_faces.augment).

Needs PyTorch (.venv-train: `make dice-model` makes it) and crops from
services/scenes/dice_crops.py:

    PYTHONPATH=. .venv-train/bin/python -m services.scenes.distil_faces TRAIN.npz VAL.npz \\
        OUT.onnx --channels 8,16,32,48 --epochs 20
"""
from __future__ import annotations

import argparse
import sys
import time
from typing import Any

import numpy as np

from services.scenes.train_faces import augment, export, load, model, turn
from services.vision.dice.classifier import MODEL, prepare

BATCH = 256
PLAIN_SHARE = 0.75        # of a batch only turned or mirrored; the rest augmented
LOG_FLOOR = -12.0         # log-probabilities below this count as this (no pull on 1e-9s)
LOG_WEIGHT = 0.05         # the log-probabilities' squared difference, beside the KL


def distil(train_path: str, val_path: str, out: str, channels: tuple[int, int, int, int],
           hidden: int, epochs: int, seed: int) -> None:
    import onnxruntime as ort
    import torch
    import torch.nn.functional as F

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    teacher = ort.InferenceSession(str(MODEL), providers=["CPUExecutionProvider"])

    def taught(x: np.ndarray) -> Any:
        return torch.from_numpy(teacher.run(None, {"crops": x})[0])

    x, _ = load(train_path)
    vx_, vy = load(val_path)
    vx = prepare(vx_)
    v_teacher = torch.softmax(taught(vx), 1)
    net = model(channels, hidden, dropout=0.0)
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-5)
    sched = torch.optim.lr_scheduler.OneCycleLR(
        opt, max_lr=3e-3, total_steps=epochs * (len(x) // BATCH + 1))
    for epoch in range(epochs):
        t0 = time.time()
        net.train()
        order = rng.permutation(len(x))
        for k in range(0, len(x), BATCH):
            idx = order[k:k + BATCH]
            plain = int(PLAIN_SHARE * len(idx))
            views = np.array([turn(c, rng) for c in x[idx[:plain]]], x.dtype)
            xb = prepare(np.concatenate([views.reshape((-1,) + x.shape[1:]),
                                         augment(x[idx[plain:]], rng)]))
            want = F.log_softmax(taught(xb), 1)
            got = F.log_softmax(net(torch.from_numpy(xb)), 1)
            loss = F.kl_div(got, want, log_target=True, reduction="batchmean") + LOG_WEIGHT * \
                F.mse_loss(got.clamp(min=LOG_FLOOR), want.clamp(min=LOG_FLOOR))
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
        net.eval()
        with torch.no_grad():
            probs = torch.softmax(net(torch.from_numpy(vx)), 1)
        agree = float((probs.argmax(1) == v_teacher.argmax(1)).float().mean())
        apart = (probs - v_teacher).abs().max(1).values
        error = float((probs.argmax(1) != torch.from_numpy(vy)).float().mean())
        print(f"epoch {epoch + 1}/{epochs}: the teacher's class on {100 * agree:.2f} % of the "
              f"validation crops, probabilities apart by {float(apart.median()):.4f} "
              f"(median), error {100 * error:.2f} % ({time.time() - t0:.0f} s)", flush=True)
    export(net, x.shape[1], out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("train", help="crops (.npz, services.scenes.dice_crops; comma-separated)")
    ap.add_argument("validation", help="crops for validation (.npz, --validation)")
    ap.add_argument("out", help="the student's .onnx file written")
    ap.add_argument("--channels", default="8,16,32,48",
                    help="the four convolutions' widths (the teacher's: 12,24,32,48)")
    ap.add_argument("--hidden", type=int, default=64, help="the hidden layer's width")
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    widths = tuple(int(c) for c in a.channels.split(","))
    if len(widths) != 4 or min(widths) < 1:
        ap.error(f"--channels: four positive widths, got {a.channels!r}")
    distil(a.train, a.validation, a.out, (widths[0], widths[1], widths[2], widths[3]),
           a.hidden, a.epochs, a.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
