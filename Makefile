# gpusql build. `make` builds bin/gpusql, with the `cuda` tag when nvcc is
# present (kernels compiled to PTX first); `make test` runs every test that
# this machine can run (GPU tests skip, saying why, where no GPU is found).
GO       ?= go
NVCC     ?= nvcc
HAVE_CUDA := $(shell command -v $(NVCC) >/dev/null 2>&1 && test -f /usr/include/cuda.h && echo yes)
TAGS     := $(if $(HAVE_CUDA),cuda,)
KERNELS  := $(wildcard kernels/*.cu)
PTX      := $(patsubst kernels/%.cu,kernels/ptx/%.ptx,$(KERNELS))
LDFLAGS  ?= -s -w

.PHONY: all ptx demo test vet gpu-bundle clean

all: bin/gpusql

ptx: $(PTX)

# compute_80 PTX: the driver JITs it for Ampere and Hopper; no toolkit needed to run.
kernels/ptx/%.ptx: kernels/%.cu $(wildcard kernels/*.cuh)
	@mkdir -p kernels/ptx
	$(NVCC) -ptx -arch=compute_80 -O3 -lineinfo -o $@ $<

bin/gpusql: $(if $(HAVE_CUDA),$(PTX),) FORCE
	@mkdir -p bin
	$(GO) build $(if $(TAGS),-tags $(TAGS),) -ldflags '$(LDFLAGS)' -o $@ ./cmd/gpusql

FORCE:

# The main job on the embedded default: SSB data at DEMO_SF, the 13 queries
# on the GPU (when one is usable) and the CPU, results checked equal across
# executors, per-query times and GB/s. The data is generated into the
# database DEMO_DB on the first run and opened from it on the next ones
# (delete it to generate again).
DEMO_SF ?= 1
DEMO_DB ?= ssb-data/ssb-sf$(DEMO_SF).gpusql
demo: bin/gpusql
	bin/gpusql bench ssb --sf $(DEMO_SF) --runs 3 --db $(DEMO_DB)

vet: $(if $(HAVE_CUDA),$(PTX),)
	$(GO) vet ./...
	$(if $(HAVE_CUDA),$(GO) vet -tags cuda ./...,)

test: $(if $(HAVE_CUDA),$(PTX),)
	$(GO) test ./...
	$(if $(HAVE_CUDA),$(GO) test -tags cuda ./exec/gpu/... ./kernels/... ./engine/...,)

# A folder that runs on a GPU machine without Go: the cuda test binaries,
# bin/gpusql and a script that runs them all. Binaries are stripped and
# compressed to stay under the device tool's transfer limit.
GPU_TEST_PKGS ?= ./exec/gpu ./kernels ./engine
gpu-bundle: $(PTX)
	@test -n "$(HAVE_CUDA)" || { echo "gpu-bundle needs the CUDA toolkit: run scripts/install-cuda.sh"; exit 1; }
	rm -rf gpu-bundle && mkdir -p gpu-bundle/bin
	$(GO) build -tags cuda -ldflags '$(LDFLAGS)' -o gpu-bundle/bin/gpusql ./cmd/gpusql
	for p in $(GPU_TEST_PKGS); do \
	  n=$$(echo $$p | sed 's#^\./##; s#/#_#g'); \
	  $(GO) test -c -tags cuda -ldflags '$(LDFLAGS)' -o gpu-bundle/bin/$$n.test $$p || exit 1; \
	done
	mkdir -p gpu-bundle/tree && cp -r testdata gpu-bundle/tree/testdata
	for p in $(GPU_TEST_PKGS); do mkdir -p gpu-bundle/tree/$$p; \
	  if [ -d $$p/testdata ]; then cp -r $$p/testdata gpu-bundle/tree/$$p/; fi; done
	cp scripts/run-gpu-bundle.sh gpu-bundle/run.sh
	cd gpu-bundle && xz -T0 -6 bin/*
	du -sh gpu-bundle

clean:
	rm -rf bin gpu-bundle kernels/ptx
