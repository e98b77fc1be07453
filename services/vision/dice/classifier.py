"""The dice face classifier: a small convolutional network (faces.onnx, run by ONNX Runtime on
one thread) that looks at a candidate's crop (candidates.crop) and says what is at its centre:

- 1-6: the top face of a flat die, with that many pips;
- 7 (`LEANING`): a die leaning on something or lying on the other die («dado montado»);
- 0 (`NOTHING`): no die's centre (felt, printed layout, a chip, a card, a die seen off-centre).

Trained by services/scenes/train_faces.py on crops from generated frames
(services/scenes/dice_crops.py: development data only); `make dice-model` rebuilds it.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np
import onnxruntime as ort

MODEL = Path(__file__).with_name("faces.onnx")
NOTHING, LEANING = 0, 7
CLASSES = 8


def prepare(crops: np.ndarray) -> np.ndarray:
    """N x CROP x CROP x 3 uint8 crops -> the network's N x 3 x CROP x CROP input: each crop
    less its own mean, over its own spread (a die reads the same in a lamp's light or in
    shade, on a bright or a dull camera)."""
    x = crops.astype(np.float32)
    # np.mean and np.std's own operations (sums in float32, each over the count), the crop
    # less its mean computed once for both
    n = x[0].size
    d = x - x.sum(axis=(1, 2, 3), keepdims=True) / n
    std = np.sqrt(np.square(d).sum(axis=(1, 2, 3), keepdims=True) / n)
    return np.ascontiguousarray((d / (std + 8.0)).transpose(0, 3, 1, 2))


@lru_cache(maxsize=1)
def _session() -> ort.InferenceSession:
    # ONNX Runtime rather than OpenCV's dnn: 1.5-2 times faster on one thread (a dozen crops
    # 1.33 against 2.22 ms, thirty 2.8 against 5.7), logits within 1e-5 of OpenCV's. One
    # thread, as the reader's CPU time is counted per core; the caller's threads read frames.
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    return ort.InferenceSession(str(MODEL), options, providers=["CPUExecutionProvider"])


def turned(crops: np.ndarray, probs: np.ndarray | None = None) -> np.ndarray:
    """The mean class probabilities of each crop over its 4 turns and their mirror images
    (`probs`: the crops' own, already known). A die's face is the same face turned or
    mirrored, and the network was trained on all eight: one view's doubt (a leaning die's
    side, or a face's pip blurred by print beside it) is its own, and the mean is steadier."""
    views = [np.rot90(crops, k, axes=(1, 2)) for k in range(4)]
    views += [v[:, :, ::-1] for v in views]
    if probs is not None:
        views = views[1:]
    out = classify(np.concatenate(views)).reshape(len(views), len(crops), CLASSES)
    total = out.sum(axis=0) + (0.0 if probs is None else probs)
    return np.asarray(total / 8.0, np.float32)


def classify(crops: np.ndarray) -> np.ndarray:
    """Class probabilities (N x CLASSES) of N crops."""
    if len(crops) == 0:
        return np.zeros((0, CLASSES), np.float32)
    logits = _session().run(None, {"crops": prepare(crops)})[0].reshape(len(crops), CLASSES)
    z = np.exp(logits - logits.max(axis=1, keepdims=True))
    return np.asarray(z / z.sum(axis=1, keepdims=True))
