"""The module reads text without LibTorch (as the ocrforge binary)."""
import os
import subprocess

from ocrforge import _ocrforge


def test_libtorch_is_never_loaded(ocr, sample_paths):
    ocr.ocr(sample_paths[2])
    with open("/proc/self/maps", encoding="utf-8") as f:
        maps = f.read()
    assert "_ocrforge" in maps
    assert "libtorch" not in maps and "libc10" not in maps


def test_extension_does_not_link_libtorch():
    out = subprocess.run(["readelf", "-d", _ocrforge.__file__], capture_output=True, text=True, check=True).stdout
    needed = [line for line in out.splitlines() if "(NEEDED)" in line]
    assert any("libonnxruntime" in line for line in needed)
    assert not any("torch" in line or "c10" in line for line in needed)
    assert os.path.basename(_ocrforge.__file__).startswith("_ocrforge")
