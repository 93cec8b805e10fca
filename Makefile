# Front door. `make run` and `make test` do all the set-up on a fresh Debian 12 machine.
BUILD ?= build
JOBS ?= $(shell nproc)
SAMPLE ?= samples/default.tilescope.json
CMAKE_FLAGS ?=
PREFIX ?= /usr/local

.PHONY: all deps configure build run test bench format asan fuzz clean install package

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

format:
	find app core widgets tests bench fuzz -name '*.cpp' -o -name '*.h' | xargs clang-format -i

clean:
	rm -rf $(BUILD)
