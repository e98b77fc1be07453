"""The dice face classifier: a small convolutional network (faces.onnx, run by OpenCV's dnn
module) that looks at a candidate's crop (candidates.crop) and says what is at its centre:

- 1-6: the top face of a flat die, with that many pips;
- 7 (`LEANING`): a die leaning on something or lying on the other die («dado montado»);
- 0 (`NOTHING`): no die's centre (felt, printed layout, a chip, a card, a die seen off-centre).

Trained by services/scenes/train_faces.py on crops from generated frames
(services/scenes/dice_crops.py: development data only); `make dice-model` rebuilds it.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

MODEL = Path(__file__).with_name("faces.onnx")
NOTHING, LEANING = 0, 7
CLASSES = 8


def prepare(crops: np.ndarray) -> np.ndarray:
    """N x CROP x CROP x 3 uint8 crops -> the network's N x 3 x CROP x CROP input: each crop
    less its own mean, over its own spread (a die reads the same in a lamp's light or in
    shade, on a bright or a dull camera)."""
    x = crops.astype(np.float32)
    mean = x.mean(axis=(1, 2, 3), keepdims=True)
    std = x.std(axis=(1, 2, 3), keepdims=True)
    return np.ascontiguousarray(((x - mean) / (std + 8.0)).transpose(0, 3, 1, 2))


@lru_cache(maxsize=1)
def _net() -> cv2.dnn.Net:
    # The classic engine: a third faster than OpenCV 5's new graph engine on a dozen 40 px
    # crops (3.1 against 5.0 ms, one thread).
    net = cv2.dnn.readNetFromONNX(str(MODEL), engine=cv2.dnn.ENGINE_CLASSIC)
    net.setPreferableBackend(cv2.dnn.DNN_BACKEND_OPENCV)
    return net


def classify(crops: np.ndarray) -> np.ndarray:
    """Class probabilities (N x CLASSES) of N crops."""
    if len(crops) == 0:
        return np.zeros((0, CLASSES), np.float32)
    net = _net()
    net.setInput(prepare(crops))
    logits = net.forward().reshape(len(crops), CLASSES)
    z = np.exp(logits - logits.max(axis=1, keepdims=True))
    return np.asarray(z / z.sum(axis=1, keepdims=True))
