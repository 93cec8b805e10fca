# Front door. `make run` and `make test` do all the set-up on a fresh Debian 12 machine.
BUILD ?= build
JOBS ?= $(shell nproc)
SAMPLE ?= samples/default.tilescope.json
CMAKE_FLAGS ?=
PREFIX ?= /usr/local

.PHONY: all deps configure build run test bench format asan fuzz fuzz-long clean install package

all: build

deps:
	@bash tools/install-deps.sh

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS)

configure: deps $(BUILD)/CMakeCache.txt

build: configure
	cmake --build $(BUILD) -j $(JOBS)

run: build
	$(BUILD)/app/gui/tilescope $(SAMPLE)

test: build
	cd $(BUILD) && QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j $(JOBS)

# `make install PREFIX=~/.local` (DESTDIR=... stages it elsewhere, as packagers do).
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

# A .deb (Debian 12, Depends from dpkg-shlibdeps) and a relocatable .tar.gz in $(BUILD).
package: build
	cd $(BUILD) && cpack -G "DEB;TGZ"

bench: build
	$(BUILD)/bench/tilescope-bench --benchmark_min_time=0.2

asan: deps
	cmake --preset asan && cmake --build --preset asan -j $(JOBS) && ctest --preset asan -j $(JOBS)

fuzz: deps
	bash tools/fuzz.sh $(or $(SECONDS_PER_TARGET),60)

# The long campaign: EXECS executions per target on every core (fast build, dictionaries,
# corpora kept in build-fuzz/long), the ASan replay of every corpus input and the coverage
# report per target (docs/hardening.md, "Campaign at volume"). FUZZ_BUDGET=S caps the wall time.
fuzz-long: deps
	bash tools/fuzz_long.sh $(or $(EXECS),10000000)

format:
	find app core widgets tests bench fuzz -name '*.cpp' -o -name '*.h' | xargs clang-format -i

clean:
	rm -rf $(BUILD)
