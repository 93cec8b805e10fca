# SPDX-License-Identifier: Apache-2.0
# Front door. `make run` and `make test` do all the set-up on a fresh Debian 12 machine.
BUILD ?= build
JOBS ?= $(shell nproc)
SAMPLE ?= samples/default.tilescope.json
CMAKE_FLAGS ?=
PREFIX ?= /usr/local
# The packages are built in a tree of their own, without the tests and benchmarks.
PKG_BUILD ?= build-package
# ccache, where installed, is the compiler launcher of every tree, with the checkout as its base
# directory (cmake/build_speed.cmake): its cache serves every build tree of it and other checkouts
# (the binaries hold no absolute path).

.PHONY: all deps configure build run test bench format asan fuzz fuzz-long clean install package \
	monkey-long fault-long

all: build

deps:
	@bash tools/install-deps.sh

# The development tree keeps line tables only (cmake/build_speed.cmake, TILESCOPE_DEBUG_INFO); the
# packages, below, carry full debug information.
$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTILESCOPE_DEBUG_INFO=lines \
	  $(CMAKE_FLAGS)

configure: deps $(BUILD)/CMakeCache.txt

build: configure
	cmake --build $(BUILD) -j $(JOBS)

run: build
	$(BUILD)/app/gui/tilescope $(SAMPLE)

test: build
	cd $(BUILD) && QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j $(JOBS)

# `make install PREFIX=~/.local` (DESTDIR=... stages it elsewhere, as packagers do); stripped, as
# the packages are.
install: build
	cmake --install $(BUILD) --prefix $(PREFIX) --strip

# A .deb (Debian 12, Depends from dpkg-shlibdeps), its -dbgsym .ddeb and a relocatable .tar.gz in
# $(PKG_BUILD), which builds only what they hold (no tests, no benchmarks) and needs only the build
# dependencies (install-deps.sh --build). docs/packaging.md says what is in them.
package:
	@bash tools/install-deps.sh --build
	cmake -S . -B $(PKG_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTILESCOPE_TESTS=OFF \
	  -DTILESCOPE_BENCH=OFF $(CMAKE_FLAGS)
	cmake --build $(PKG_BUILD) -j $(JOBS) --target tilescope_packaged
	cd $(PKG_BUILD) && cpack -G "DEB;TGZ"

bench: build
	$(BUILD)/bench/tilescope-bench --benchmark_min_time=0.2

asan: deps
	cmake --preset asan && cmake --build --preset asan -j $(JOBS) && ctest --preset asan -j $(JOBS)

# The long forms of the GUI monkey and of the crash tests, under ASan+UBSan+LSan
# (docs/hardening.md records their runs): MONKEY_STEPS steps from each of MONKEY_SEEDS
# (MONKEY_MIX=docks: the dock storm, mostly docks, panels and the Inference Trace); FAULT_ROUNDS
# SIGKILLs during saves, autosaves and exports, then the recovery tests. Only their targets are
# built (the whole ASan suite is big).
MONKEY_SEEDS ?= 1 2 3
MONKEY_STEPS ?= 3000
MONKEY_MIX ?=
FAULT_ROUNDS ?= 60
# QtTest's watchdog ends a test function after 5 minutes: the long forms take longer.
ASAN_ENV = QT_QPA_PLATFORM=offscreen QTEST_FUNCTION_TIMEOUT=7200000 ASAN_OPTIONS=detect_leaks=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	LSAN_OPTIONS=suppressions=$(CURDIR)/tools/lsan.supp:print_suppressions=0

monkey-long:
	cmake --preset asan && cmake --build --preset asan -j $(JOBS) --target test_gui_monkey
	for s in $(MONKEY_SEEDS); do \
	  $(ASAN_ENV) TILESCOPE_MONKEY_SEED=$$s TILESCOPE_MONKEY_STEPS=$(MONKEY_STEPS) \
	    TILESCOPE_MONKEY_MIX=$(MONKEY_MIX) build-asan/tests/test_gui_monkey || exit 1; \
	done

fault-long:
	cmake --preset asan && cmake --build --preset asan -j $(JOBS) --target tilescope \
	  test_fault_atomicity test_recovery_kill test_recovery_lock
	$(ASAN_ENV) TILESCOPE_FAULT_ROUNDS=$(FAULT_ROUNDS) build-asan/tests/test_fault_atomicity
	$(ASAN_ENV) build-asan/tests/test_recovery_kill
	$(ASAN_ENV) build-asan/tests/test_recovery_lock

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
