# The two set-up commands of the README:
#   make demo   bootstrap (packages, ONNX Runtime, default models), build the reading binary, read a sample image
#   make test   bootstrap, build, run every test (what CI runs)
# Other targets: test-fast (unit tests only: `ctest -L unit -LE slow`, no
# models, no multi-process runs), build, bootstrap, bench, install, clean,
# model-en (remake the English document recognizer from the shared data:
# scripts/make_model_en.sh, docs/shipped-models.md; DATA=../shared/data),
# test-slow (only the tests that train: labels slow and convergence),
# fuzz (each fuzz target under libFuzzer + AddressSanitizer, clang, for
# FUZZ_SECONDS each: scripts/fuzz.sh, docs/reliability.md).
# CPU_KIND=avx2 (or avx512_core, avx512_core_vnni, avx512_core_bf16) runs
# test, test-fast or test-slow as that kind of CPU would, on a machine that
# has more (scripts/as_cpu_kind.sh; docs/architecture.md, "CPU kinds").
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=
PREFIX ?= /usr/local
DEMO_IMAGE ?= tests/data/samples/imgs_ger_1.jpg
CPU_KIND ?=
AS_CPU_KIND = $(if $(CPU_KIND),bash $(CURDIR)/scripts/as_cpu_kind.sh $(CPU_KIND),)

# ccache keyed on paths relative to the checkout, so fresh clones in other
# folders (CI) reuse the compiled objects.
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_NOHASHDIR := true
export CCACHE_MAXSIZE ?= 5G
# Without these, ccache refuses every file compiled with the train layer's
# precompiled header (a third of the build): PCH builds are cacheable once
# ccache may ignore the PCH's __DATE__/__TIME__ and its defines.
export CCACHE_SLOPPINESS ?= pch_defines,time_macros,include_file_mtime,include_file_ctime

.PHONY: all demo test test-fast test-slow build bootstrap bench install clean model-en fuzz
all: build

bootstrap:
	bash scripts/bootstrap.sh

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

build: bootstrap $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j$(JOBS)

# The demo builds only the reading binary (no LibTorch, no tests); `make build`
# or `make test` build the rest in the same folder.
demo: bootstrap $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j$(JOBS) --target ocrforge
	./$(BUILD)/ocrforge ocr --image_dir $(DEMO_IMAGE) --use_angle_cls true --draw_img_save_dir ./inference_results
	@echo "visualisation: ./inference_results/$(notdir $(DEMO_IMAGE))  results: ./inference_results/system_results.txt"

test: build
	cd $(BUILD) && $(AS_CPU_KIND) ctest --output-on-failure -j$(JOBS)

test-fast: build
	cd $(BUILD) && $(AS_CPU_KIND) ctest --output-on-failure -j$(JOBS) -L unit -LE slow

test-slow: build
	cd $(BUILD) && $(AS_CPU_KIND) ctest --output-on-failure -j$(JOBS) -L "slow|convergence"

bench: build
	bash bench/run_benchmarks.sh $(BUILD)

FUZZ_SECONDS ?= 300
fuzz: bootstrap
	FUZZ_SECONDS=$(FUZZ_SECONDS) bash scripts/fuzz.sh

DATA ?= ../shared/data
model-en: bootstrap $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j$(JOBS) --target ocrforge ocrforge-train
	BUILD=$(BUILD) bash scripts/make_model_en.sh $(DATA)

install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

clean:
	rm -rf $(BUILD)
