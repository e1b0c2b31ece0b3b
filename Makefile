SHELL := /bin/bash
# soundset: `make sounds` builds Output/ from Assets/, `make test` runs the tests.
# Both install the C libraries first when they are missing (apt-get or brew): libsndfile,
# libsamplerate, libebur128, OpenSSL's libcrypto (SHA-256), librubberband (tempo),
# libmicrohttpd (soundset serve) and libmp3lame (its MP3s).

SWIFT      ?= swift
ASSETS     ?= Assets
OUTPUT     ?= Output
PREFIX     ?= /usr/local
BINDIR     ?= $(PREFIX)/bin
APT_DEPS   := libsndfile1-dev libsamplerate0-dev libebur128-dev libssl-dev librubberband-dev libmicrohttpd-dev libmp3lame-dev pkg-config openssl
BREW_DEPS  := libsndfile libsamplerate libebur128 openssl@3 rubberband libmicrohttpd lame pkg-config
PKGS       := sndfile samplerate libebur128 libcrypto rubberband libmicrohttpd
# libmp3lame ships no pkg-config file (Debian's, Homebrew's): setup looks for its header instead.
LAME_H     := $(if $(filter Darwin,$(shell uname -s)),$(shell brew --prefix 2>/dev/null)/include/lame/lame.h,/usr/include/lame/lame.h)
# Homebrew keeps openssl@3 out of the default search paths ("keg-only"): point pkg-config at it.
# With no pkg-config file, lame's header and library are found on the compiler's own paths, which
# on Apple silicon (/opt/homebrew) do not include Homebrew's: add them (clang reads both variables).
ifeq ($(shell uname -s),Darwin)
export PKG_CONFIG_PATH := $(shell brew --prefix openssl@3 2>/dev/null)/lib/pkgconfig:$(PKG_CONFIG_PATH)
export CPATH := $(shell brew --prefix 2>/dev/null)/include$(if $(CPATH),:$(CPATH))
export LIBRARY_PATH := $(shell brew --prefix 2>/dev/null)/lib$(if $(LIBRARY_PATH),:$(LIBRARY_PATH))
endif
DEMO_APT   := espeak-ng sox
RELEASE    := .build/release/soundset

.PHONY: all setup sounds watch test test-runtime-alone test-suite test-by-version test-bench-helpers test-reuse check build install uninstall bench bench-build bench-serve bench-tools \
	report-screenshot demo-pack fuzz sanitize format clean help examples release

all: sounds

help:
	@echo "make sounds     build $(OUTPUT)/ from $(ASSETS)/ (installs the C libraries if missing)"
	@echo "make watch      build $(OUTPUT)/ again whenever $(ASSETS)/ changes, until Ctrl-C"
	@echo "make test       run the test suite"
	@echo "make examples   type-check Examples/ (the iOS side) against the runtime and Apple's documented APIs"
	@echo "make check      check $(OUTPUT)/ against $(ASSETS)/ (durations, freshness, integrity, budget)"
	@echo "make install    put soundset in $(BINDIR) (PREFIX=$$HOME/.local for ~/.local/bin); make uninstall removes it"
	@echo "make bench      time and measure soundset against the sox recipe and ffmpeg-normalize, and soundset serve with wrk"
	@echo "make bench-build  only the build's figures (the C floor, and the scaling table at 1,150 and 5,750 takes)"
	@echo "make bench-serve  only soundset serve's figures (wrk: distinct and cached amounts; 304, HEAD, a new client among idle connections; the baseline, the ceiling)"
	@echo "make fuzz       fuzz the amount parser, manifest decoder and sound reader (FUZZ_SECONDS each)"
	@echo "make sanitize   run the test suite under the address sanitizer"
	@echo "make format     format the sources with swift format and .swift-format"
	@echo "make demo-pack  regenerate the demo's two voices (zh-CN, en-US) in $(ASSETS)/voices/ with espeak-ng and sox"
	@echo "make clean      remove .build"
	@echo "make release    tag the current commit with the version (git tag $(VERSION)), which an app adds the runtime by"

# Installs what pkg-config (or, for LAME, its header) shows missing, or prints the exact command
# when it cannot. (The openssl command makes a voice pack's keys: docs/commands.md, and its tests.)
setup:
	@if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists $(PKGS) && test -f $(LAME_H) && command -v openssl >/dev/null 2>&1; then \
	  exit 0; \
	elif [ "$$(uname -s)" = Darwin ]; then \
	  if command -v brew >/dev/null 2>&1; then \
	    echo "installing $(BREW_DEPS) with brew"; brew install $(BREW_DEPS); \
	  else \
	    echo "soundset needs Homebrew to install its C libraries: install it from https://brew.sh, then run: brew install $(BREW_DEPS)"; exit 1; \
	  fi; \
	elif command -v apt-get >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; elif command -v sudo >/dev/null 2>&1; then SUDO=sudo; else \
	    echo "run as root: apt-get update && apt-get install -y $(APT_DEPS)"; exit 1; fi; \
	  echo "installing $(APT_DEPS) with apt-get"; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $(APT_DEPS) >/dev/null; \
	else \
	  echo "install the development packages of libsndfile, libsamplerate, libebur128, OpenSSL (libcrypto), librubberband, libmicrohttpd and libmp3lame (LAME), and pkg-config"; exit 1; \
	fi

# On Linux the Swift runtime and Foundation are linked into the binary: it then starts in 4 ms
# instead of 8 (dynamic linking), which is a third of a no-op rebuild. macOS has them in the system.
# (The linker then warns that Foundation's static library uses mktemp: the toolchain's, not ours.)
STATIC     := $(if $(filter Linux,$(shell uname -s)),--static-swift-stdlib,)

# SwiftPM adds -color-diagnostics to every compiler command when its standard output is a
# terminal, and not on a pipe; a changed command recompiles every module, so `make sounds` in a
# terminal and then `make sounds | tee log` rebuilt the whole tool each time (82-92 s). With
# --no-color-diagnostics the commands are the same either way (make test's last step checks it).
SWIFT_BUILD := $(SWIFT) build --no-color-diagnostics
SWIFT_TEST  := $(SWIFT) test --no-color-diagnostics

# The tool is built when a source is newer than it: `make sounds`, `check` and `watch` then start
# at once (swift build alone takes seconds to find nothing to do). `make build` always asks it.
TOOL_SOURCES := Package.swift $(shell find Sources -type f ! -name '.*' 2>/dev/null)

build: setup
	$(SWIFT_BUILD) -c release --product soundset $(STATIC)

$(RELEASE): $(TOOL_SOURCES) | setup
	$(SWIFT_BUILD) -c release --product soundset $(STATIC)
	@touch $@

# The tool's hints name the command that works where make was started: `make sounds`, or
# `make -C <this folder> sounds` from elsewhere (make keeps the shell's PWD; CURDIR is here).
MAKE_HINT  := $(if $(filter $(CURDIR),$(abspath $(PWD))),make,make -C $(CURDIR))
TOOL       := SOUNDSET_MAKE='$(MAKE_HINT)' $(RELEASE)

sounds: $(RELEASE)
	$(TOOL) build --assets '$(ASSETS)' --output '$(OUTPUT)'

watch: $(RELEASE)
	$(TOOL) build --watch --assets '$(ASSETS)' --output '$(OUTPUT)'

# `soundset` on the PATH: every command of the README as written, and hints that say `soundset`.
install: $(RELEASE)
	@mkdir -p "$(DESTDIR)$(BINDIR)" 2>/dev/null || true
	@[ -w "$(DESTDIR)$(BINDIR)" ] || { \
	  echo "$(DESTDIR)$(BINDIR) is not writable: run sudo make install, or make install PREFIX=$$HOME/.local"; exit 1; }
	install -m 755 $(RELEASE) "$(DESTDIR)$(BINDIR)/soundset"
	@case ":$$PATH:" in \
	  *":$(BINDIR):"*) echo "installed $(DESTDIR)$(BINDIR)/soundset: run soundset help";; \
	  *) echo "installed $(DESTDIR)$(BINDIR)/soundset, but $(BINDIR) is not on your PATH: add it (export PATH=\"$(BINDIR):\$$PATH\" in your shell's profile)";; \
	esac

uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/soundset"

# A PNG of the whole report page, rendered by headless Chromium with a CJK font (both installed when
# missing), to look at.
# With several voices, the default voice's report (Output/voices/<voice>.report.html).
report-screenshot: sounds
	@voice=$$(sed -n 's/.*"defaultVoice" *: *"\([^"]*\)".*/\1/p' '$(OUTPUT)/voices.json' 2>/dev/null); \
	  report='$(OUTPUT).report.html'; [ -z "$$voice" ] || report="$(OUTPUT)/voices/$$voice.report.html"; \
	  bash Tests/Scripts/report-screenshot.sh "$$report" .build/report.png

# Warnings are errors; Swift 6 language mode already checks concurrency strictly. An iOS app (and
# its simulator tests) gets SoundsetRuntime with Foundation and nothing else, which two steps hold:
# - test-runtime-alone: Tests/RuntimeAlone is a package of the runtime's sources, test support and
#   tests and nothing else (no C module, no other target), built with pkg-config finding none of
#   the C libraries; the runtime's tests are its (swift test --package-path Tests/RuntimeAlone) and
#   run there against the runtime optimized (their exhaustive readings and searches took 5 of the
#   suite's 6 CPU minutes unoptimized; optimized, under one), the tests' own code unoptimized but
#   for the exhaustive ones (see its Package.swift);
# - test-suite: in the package's own build, the plan SwiftPM wrote shows the runtime and its test
#   support compiled against each other alone (Tests/Scripts/runtime-graph.sh); every test runs.
# - test-by-version: an app adds SoundsetRuntime by version: a package depending on a tagged copy of
#   this one `from:` its version builds it with no C library found (Tests/Scripts/by-version.sh;
#   SwiftPM refuses a version dependency on a product with unsafe flags);
# - test-bench-helpers: what make bench compiles besides soundset still compiles
#   (Tests/Scripts/bench-helpers.sh check).
# They are independent and run two at once (none keeps both cores busy all the time: a module
# waits for the one it imports, and tests wait for processes), their lines printed whole. Then
# test-reuse: the build just done compiles nothing again, on a terminal or a pipe.
# (--disable-xctest: the tests are Swift Testing's; XCTest would print "Executed 0 tests".)
RUNTIME_ALONE := .build/runtime-alone
# Each step's whole output goes to .build/test-logs; a step that passes prints its summary (a line a
# suite), one that fails everything but the passing tests' lines (Tests/Scripts/quietly.sh).
# make test VERBOSE=1 prints everything as it comes.
QUIETLY       := VERBOSE=$(VERBOSE) bash Tests/Scripts/quietly.sh
# Line tables only, not full debug info: a failure's backtrace still names each file and line, and
# the builds cost a third less CPU (measured on a fresh clone: 135 -> 123 CPU-s for the package's
# debug build, 82 -> 60 for Tests/RuntimeAlone's optimized one). Every make test step that builds
# the package passes the same flags, so none of them compiles again what another built.
TEST_FLAGS    := -Xswiftc -warnings-as-errors -Xswiftc -gline-tables-only
# make 3.81 (macOS) has no --output-sync: its lines then interleave.
OUTPUT_SYNC   := $(if $(filter 3.%,$(MAKE_VERSION)),,--output-sync=line)

test: setup
	@$(MAKE) --no-print-directory -j2 $(OUTPUT_SYNC) test-runtime-alone test-suite test-by-version test-bench-helpers
	@$(QUIETLY) examples $(MAKE) --no-print-directory examples
	@$(MAKE) --no-print-directory test-reuse

test-runtime-alone:
	@PKG_CONFIG_LIBDIR=/nonexistent PKG_CONFIG_PATH= $(QUIETLY) runtime-alone \
	  $(SWIFT_TEST) -c release --package-path Tests/RuntimeAlone --scratch-path $(RUNTIME_ALONE) --disable-xctest $(TEST_FLAGS)

test-suite:
	@$(QUIETLY) build-tests $(SWIFT_BUILD) --build-tests $(TEST_FLAGS)
	@bash Tests/Scripts/runtime-graph.sh .build/debug.yaml
	@$(QUIETLY) suite $(SWIFT_TEST) --skip-build --disable-xctest

test-by-version:
	@$(QUIETLY) by-version bash Tests/Scripts/by-version.sh '$(SWIFT)'

test-bench-helpers:
	@$(QUIETLY) bench-helpers bash Tests/Scripts/bench-helpers.sh check

test-reuse:
	@bash Tests/Scripts/no-recompile.sh $(SWIFT_BUILD) --build-tests $(TEST_FLAGS)

# Examples/ in Swift 6 mode, warnings as errors, against the runtime and Tests/ExamplesStubs (the
# Apple APIs they use, from Apple's documentation); and a runtime with an API renamed must break them.
examples:
	bash Tests/Scripts/examples.sh '$(SWIFT)' $(TEST_FLAGS)

check: $(RELEASE)
	$(TOOL) check --assets '$(ASSETS)' --output '$(OUTPUT)'

FUZZ_SECONDS ?= 30
FUZZ_TARGETS := amount manifest sounddata
# The runtime and the budget search (SoundsetBudget) that the manifest target also runs, as one module.
RUNTIME_SOURCES := $(shell find Sources/SoundsetRuntime Sources/SoundsetBudget -name '*.swift')

# Each target is compiled with the runtime's sources into one libFuzzer binary, then run for
# FUZZ_SECONDS from the committed seeds; a crash stops make and leaves its input in .build/fuzz.
fuzz:
	@mkdir -p .build/fuzz
	@for target in $(FUZZ_TARGETS); do \
	  case $$target in amount) file=AmountFuzz;; manifest) file=ManifestFuzz;; sounddata) file=SoundDataFuzz;; esac; \
	  echo "building fuzz target $$target"; \
	  swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name SoundsetRuntime -package-name soundset \
	    $(RUNTIME_SOURCES) Fuzz/$$file.swift -o .build/fuzz/$$target 2>&1 | grep -v 'Cannot export local symbol' || true; \
	  test -x .build/fuzz/$$target || exit 1; \
	  mkdir -p .build/fuzz/corpus-$$target; \
	  echo "fuzzing $$target for $(FUZZ_SECONDS) s"; \
	  .build/fuzz/$$target -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -print_final_stats=1 \
	    -artifact_prefix=.build/fuzz/$$target- .build/fuzz/corpus-$$target Fuzz/Corpus/$$target 2>&1 \
	    | grep -E '^(Done|stat::number_of_executed_runs|==[0-9]+==ERROR|SUMMARY|artifact_prefix|Test unit written)' ; \
	  status=$${PIPESTATUS[0]}; [ "$$status" = 0 ] || { echo "fuzz target $$target failed: see .build/fuzz/$$target-*"; exit 1; }; \
	done

# Tests/lsan.supp names the toolchain's own leaks (Foundation's Process), nothing of soundset's.
sanitize: setup
	SOUNDSET_SANITIZER=1 LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/lsan.supp $(SWIFT_TEST) --sanitize=address --disable-xctest
	SOUNDSET_SANITIZER=1 $(SWIFT_TEST) -c release --sanitize=address --disable-xctest --package-path Tests/RuntimeAlone --scratch-path $(RUNTIME_ALONE)-asan

# A benchmark, not a test: prints figures and ratios; never part of make test.
# bench.sh: the 230-take pack (soundset against the C floor, sox and ffmpeg-normalize, one push, the
# lock); bench-scale.sh: the scaling table on generated packs of 1,150 and 5,750 takes (generated
# once into .build/bench, a few minutes); bench-serve.sh: soundset serve with wrk.
bench: build bench-tools
	bash Tests/Scripts/bench.sh $(RELEASE)
	bash Tests/Scripts/bench-scale.sh $(RELEASE)
	bash Tests/Scripts/bench-serve.sh $(RELEASE) $(OUTPUT)

# The build's figures alone: bench.sh's builds and the C floor, and the scaling table.
bench-build: build bench-tools
	BENCH_BUILD_ONLY=1 bash Tests/Scripts/bench.sh $(RELEASE)
	bash Tests/Scripts/bench-scale.sh $(RELEASE)

bench-serve: build bench-tools
	bash Tests/Scripts/bench-serve.sh $(RELEASE) $(OUTPUT)

bench-tools:
	@command -v espeak-ng >/dev/null 2>&1 && command -v sox >/dev/null 2>&1 && [ -x /usr/bin/time ] || { \
	  if command -v apt-get >/dev/null 2>&1; then apt-get install -y -qq $(DEMO_APT) time >/dev/null; \
	  elif command -v brew >/dev/null 2>&1; then brew install espeak-ng sox gnu-time; \
	  else echo "install espeak-ng, sox and GNU time"; exit 1; fi; }
	@command -v valgrind >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1 || apt-get install -y -qq valgrind >/dev/null
	@command -v wrk >/dev/null 2>&1 && command -v curl >/dev/null 2>&1 || { \
	  if command -v apt-get >/dev/null 2>&1; then apt-get install -y -qq wrk curl >/dev/null; \
	  elif command -v brew >/dev/null 2>&1; then brew install wrk; \
	  else echo "install wrk and curl"; exit 1; fi; }

demo-pack:
	@command -v espeak-ng >/dev/null 2>&1 && command -v sox >/dev/null 2>&1 || { \
	  if command -v apt-get >/dev/null 2>&1; then apt-get install -y -qq $(DEMO_APT) >/dev/null; \
	  elif command -v brew >/dev/null 2>&1; then brew install espeak-ng sox; \
	  else echo "install espeak-ng and sox"; exit 1; fi; }
	bash Tests/Scripts/make-demo-pack.sh $(ASSETS)

# A release is a git tag named for the version (ToolVersion.current, which soundset --version prints
# and every manifest records), on a clean commit: an app adds SoundsetRuntime by it (docs/ios.md,
# Releases). A version already tagged is refused: raise ToolVersion.current first.
VERSION := $(shell sed -n 's/.*static let current = "\([0-9][0-9.]*\)".*/\1/p' Sources/SoundsetFindings/ToolVersion.swift)

release:
	@[ -n "$(VERSION)" ] || { echo "Sources/SoundsetFindings/ToolVersion.swift: no version found"; exit 1; }
	@git diff --quiet HEAD -- || { echo "the working tree has changes: commit them, then make release"; exit 1; }
	@if git rev-parse -q --verify "refs/tags/$(VERSION)" >/dev/null; then \
	  echo "$(VERSION) is tagged already (on $$(git rev-parse --short "$(VERSION)^{commit}")): raise ToolVersion.current in Sources/SoundsetFindings/ToolVersion.swift, run make sounds, commit, then make release"; exit 1; fi
	git tag -a $(VERSION) -m "soundset $(VERSION)"
	@echo "tagged $(VERSION): push it with git push origin $(VERSION)"

# The toolchain's own formatter with the committed .swift-format.
format:
	$(SWIFT) format --in-place --recursive Sources Tests Fuzz

clean:
	rm -rf .build
