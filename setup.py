"""`pip install .`: the Python module ocrforge, built by this repository's CMake.

The extension (target ocrforge_python: python/src over ocrforge::infer and
ocrforge::document, without LibTorch, tests or benchmarks) is built in build/python-package and
packed with the ONNX Runtime library it links, every shipped model set (the
PP-OCRv4 models, lang="ch", and models/en, lang="en") and the int8
calibration images, so the installed package needs nothing from
the repository (only the Debian libraries scripts/bootstrap.sh installs, and
poppler-utils' pdftoppm, run to render PDF pages).
Run `bash scripts/bootstrap.sh` first. Offline, with Debian's build tools:

    python3 -m pip install --no-build-isolation --no-index --break-system-packages .

(or the same without --break-system-packages inside a venv made with
--system-site-packages; docs/python.md). OCRFORGE_CMAKE_ARGS adds CMake
arguments (e.g. -DONNXRUNTIME_ROOT=/opt/onnxruntime).
"""
import os
import re
import shlex
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))
BUILD_BASE = os.path.join("build", "python-package")
# Every model set of ocrforge::available_langs() (src/ocrforge/infer/lang_models.h), as it sits in
# models/: "ch" is PP-OCRv4 (det, rec, cls, dictionary), "en" its English/Latin recogniser beside it.
# The package carries them in the same layout (ocrforge/models/<set>/...), where _locations.py finds
# them; tests/python/test_langs.py checks that this list covers every language.
MODEL_FILES = {
    "PP-OCRv4": ["det/inference.onnx", "rec/inference.onnx", "cls/inference.onnx", "ppocr_keys_v1.txt",
                 "README.package.md"],
    "en": ["rec/inference.onnx", "rec/inference.yml", "words.txt", "words.COPYRIGHT", "SHA256SUMS"],
}
# Documentation beside the models, copied when present.
OPTIONAL_MODEL_FILES = {"README.package.md", "SHA256SUMS"}


def project_version():
    with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
        return re.search(r"project\(ocrforge VERSION ([0-9.]+)", f.read()).group(1)


def cmake_cache_value(cache_file, name):
    with open(cache_file, encoding="utf-8") as f:
        for line in f:
            if line.startswith(name + ":"):
                return line.split("=", 1)[1].strip()
    return ""


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        models = os.path.join(ROOT, "models")
        for model_set, files in MODEL_FILES.items():
            for rel in files:
                if rel not in OPTIONAL_MODEL_FILES and not os.path.isfile(os.path.join(models, model_set, rel)):
                    raise SystemExit(f"ocrforge: {os.path.join(models, model_set, rel)} is missing; run "
                                     "`bash scripts/bootstrap.sh` first (models/en is part of the repository)")
        cmake_dir = os.path.join(ROOT, BUILD_BASE, "cmake")
        env = dict(os.environ)
        # ccache keyed on paths relative to the checkout, as the Makefile does.
        env.setdefault("CCACHE_BASEDIR", ROOT)
        env.setdefault("CCACHE_NOHASHDIR", "true")
        env.setdefault("CCACHE_SLOPPINESS", "pch_defines,time_macros,include_file_mtime,include_file_ctime")
        configure = [
            "cmake", "-S", ROOT, "-B", cmake_dir, "-DCMAKE_BUILD_TYPE=Release",
            "-DOCRFORGE_WITH_TRAIN=OFF", "-DOCRFORGE_BUILD_TESTS=OFF", "-DOCRFORGE_BUILD_BENCH=OFF",
            "-DOCRFORGE_BUILD_PYTHON=ON", "-DOCRFORGE_PYTHON_BUNDLE=ON", f"-DPython3_EXECUTABLE={sys.executable}",
        ] + shlex.split(env.get("OCRFORGE_CMAKE_ARGS", ""))
        subprocess.check_call(configure, env=env)
        jobs = env.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
        subprocess.check_call(["cmake", "--build", cmake_dir, "--target", "ocrforge_python", "-j", jobs], env=env)

        built = os.path.join(cmake_dir, "python", "ocrforge")
        so = next(f for f in os.listdir(built) if f.startswith("_ocrforge") and f.endswith(".so"))
        dest = self.get_ext_fullpath(ext.name)
        package = os.path.dirname(dest)
        os.makedirs(package, exist_ok=True)
        shutil.copy2(os.path.join(built, so), dest)
        # ONNX Runtime under its SONAME, found through the extension's RPATH $ORIGIN.
        ort = cmake_cache_value(os.path.join(cmake_dir, "CMakeCache.txt"), "OnnxRuntime_LIBRARY")
        shutil.copy2(os.path.realpath(ort), os.path.join(package, "libonnxruntime.so.1"))
        ort_licence = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(ort))), "LICENSE")
        if os.path.isfile(ort_licence):
            shutil.copy2(ort_licence, os.path.join(package, "ONNXRUNTIME_LICENSE"))
        for model_set, files in MODEL_FILES.items():
            for rel in files:
                src = os.path.join(models, model_set, rel)
                if os.path.isfile(src):
                    out = os.path.join(package, "models", model_set, rel)
                    os.makedirs(os.path.dirname(out), exist_ok=True)
                    shutil.copy2(src, out)
        calibration = os.path.join(package, "data", "int8_calibration")
        shutil.rmtree(calibration, ignore_errors=True)
        shutil.copytree(os.path.join(ROOT, "data", "int8_calibration"), calibration)


os.makedirs(os.path.join(ROOT, BUILD_BASE), exist_ok=True)  # egg_info's egg_base must exist
setup(
    version=project_version(),
    packages=["ocrforge"],
    package_dir={"": "python"},
    package_data={"ocrforge": ["*.pyi", "py.typed"]},
    ext_modules=[Extension("ocrforge._ocrforge", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    # Batch reading on a Dask cluster (docs/scale-out.md); needs Debian's python3-distributed.
    options={"build": {"build_base": BUILD_BASE}, "egg_info": {"egg_base": BUILD_BASE}},
    zip_safe=False,
)
