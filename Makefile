# SPDX-License-Identifier: GPL-2.0
#
# make verify KERNEL=<name>   the whole pipeline for one kernel of kernels.list
# make check                  the tests
# make help                   everything else
#
# Values given on the command line (KERNEL=, BUILD=, ...) are data: they
# reach the driver through the environment, unexpanded, never through a
# shell command line.

KVERIFY := build/kverify
HOSTCC ?= cc
CFLAGS ?= -O2 -g
KVERIFY_VERSION := $(shell git describe --always --dirty 2>/dev/null || echo unknown)
KVERIFY_CFLAGS := -std=gnu11 -D_GNU_SOURCE -Wall -Wextra -Werror $(CFLAGS) \
	-DKVERIFY_VERSION='"$(KVERIFY_VERSION)"'
SRCS := $(wildcard tools/*.c)
HDRS := $(wildcard tools/*.h)

# Debian packages, by job.
DEPS_BUILD := gcc make libc6-dev
DEPS_VERIFY := $(DEPS_BUILD) quilt coccinelle perl python3 bc bison flex \
	libelf-dev libssl-dev cpio xz-utils apt dpkg git diffutils \
	qemu-system-x86 busybox-static uuid-dev dwarves
DEPS_CHECK := $(DEPS_VERIFY) procps ccache libcmocka-dev clang valgrind python3-yaml \
	lava-common lava-dispatcher b4 git-filter-repo

# Command-line values, as data.
KV_TARGETS := $(value KERNEL)
KV_BUILD := $(value BUILD)
KV_SKIP := $(value SKIP)
KV_CONFIG := $(value CONFIG)
KV_BOOT := $(value BOOT)
KV_TREE := $(value TREE)
KV_NAME := $(value NAME)
KV_BUG := $(value BUG)
KV_MBOX := $(value MBOX)
KV_MSGID := $(value MSGID)
KV_TO := $(value TO)
# make send CC=...: recipients (kverify itself is built with HOSTCC).
KV_CC := $(if $(filter command line,$(origin CC)),$(value CC))
KV_FROM := $(value FROM)
KV_SEND := $(value SEND)
KV_CCACHE := $(value CCACHE)
KV_KCC := $(value KCC)
KV_KHOSTCC := $(value KHOSTCC)
KV_KEEP_GOING := $(value KEEP_GOING)
KV_VERIFY_CACHE := $(value VERIFY_CACHE)
unexport KERNEL BUILD SKIP CONFIG BOOT TREE NAME BUG MBOX MSGID TO CC FROM SEND KCC KHOSTCC CCACHE \
	KEEP_GOING VERIFY_CACHE
export KVERIFY_TARGETS := $(KV_TARGETS)
export KVERIFY_BUILD := $(KV_BUILD)
export KVERIFY_SKIP := $(KV_SKIP)
export KVERIFY_CONFIG := $(KV_CONFIG)
export KVERIFY_BOOT := $(KV_BOOT)
export KVERIFY_BACKPORT_TREE := $(KV_TREE)
export KVERIFY_BACKPORT_NAME := $(KV_NAME)
export KVERIFY_BUG_DEBIAN := $(KV_BUG)
export KVERIFY_MBOX := $(KV_MBOX)
export KVERIFY_MSGID := $(KV_MSGID)
export KVERIFY_TO := $(KV_TO)
export KVERIFY_CC := $(KV_CC)
export KVERIFY_FROM := $(KV_FROM)
export KVERIFY_SEND := $(KV_SEND)
export KVERIFY_CCACHE := $(KV_CCACHE)
export KVERIFY_KERNEL_CC := $(KV_KCC)
export KVERIFY_KERNEL_HOSTCC := $(KV_KHOSTCC)
export KVERIFY_KEEP_GOING := $(KV_KEEP_GOING)
export KVERIFY_VERIFY_CACHE := $(KV_VERIFY_CACHE)

.PHONY: all verify verify-all backport bundle send am trailers range-diff bench check deps deps-verify deps-check list help \
	clean

all: $(KVERIFY)

$(KVERIFY): $(SRCS) $(HDRS) | deps-build
	@mkdir -p build
	$(HOSTCC) $(KVERIFY_CFLAGS) -o $@ $(SRCS)

deps-build:
	@tools/deps $(DEPS_BUILD)

deps-verify:
	@tools/deps $(DEPS_VERIFY)

deps-check:
	@tools/deps $(DEPS_CHECK)

deps: deps-check

## verify: the pipeline for KERNEL=<name or unique prefix> (see: make list)
verify: deps-verify $(KVERIFY)
	@if [ -z "$$KVERIFY_TARGETS" ]; then \
		echo "usage: make verify KERNEL=<name>; the names:" >&2; \
		$(KVERIFY) list >&2; exit 2; fi
	+$(KVERIFY) verify --env

## verify-all: every target of kernels.list; -jN runs them side by side
verify-all: deps-verify $(KVERIFY)
	+@$(MAKE) --no-print-directory -k verify-each \
		VERIFY_NAMES="$$($(KVERIFY) list --names)"

verify-each: $(addprefix verify-one/,$(VERIFY_NAMES))

# $* is a name kernels.list validated: letters, digits and ._- only.
verify-one/%: $(KVERIFY)
	+KVERIFY_TARGETS=$* $(KVERIFY) verify --env

## bundle: verify KERNEL=<name>, then write results/<name>/bundle/ for labs
bundle: deps-verify $(KVERIFY)
	+$(KVERIFY) verify --env --bundle

## backport: generate backports/NAME/ for the tree TREE with the semantic patch
backport: deps-verify $(KVERIFY)
	@$(KVERIFY) backport --env

## send, am, trailers, range-diff: the upstream series through b4
send am trailers range-diff: deps-verify $(KVERIFY)
	@tools/deps b4 git-filter-repo
	@$(KVERIFY) $@ --env

## check: unit tests, semantic patch tests, integration tests on real trees
check: deps-check $(KVERIFY)
	@tests/run

## bench: time the naive flow against make verify cold and warm (docs/benchmarks.md)
bench: deps-verify $(KVERIFY)
	@tools/bench/bench

## sweep: every linux-source version of the archive, fetch to cocci (docs/sweep.md)
sweep: export KVERIFY_SWEEP_ONLY := $(value ONLY)
sweep: deps-verify $(KVERIFY)
	@$(KVERIFY) sweep --env

list: $(KVERIFY)
	@$(KVERIFY) list

matrix-github matrix-gitlab: $(KVERIFY)
	@$(KVERIFY) matrix --format $(subst matrix-,,$@)

help:
	@echo "make verify KERNEL=<name>  fetch, apply, checkpatch, cocci, build, boot and test one kernel"
	@echo "    BUILD=objects          only build arch/x86/kvm/ (no boot)"
	@echo "    SKIP=step,step         steps not to run"
	@echo "    CONFIG=<fragment>      a config fragment instead of configs/kvm-guest.config"
	@echo "    BOOT=auto|distro|own   deb: targets boot Debian's kernel with the patched KVM modules"
	@echo "                           and the kabi step (auto, the default: our own kernel, saying why,"
	@echo "                           where Debian's compiler is missing); own: our allnoconfig bzImage"
	@echo "    CCACHE=1               ccache in front of gcc (hits and misses in report.json)"
	@echo "    KCC=, KHOSTCC=         the kernel's compilers (distcc, icecream)"
	@echo "    KEEP_GOING=1           after a failure, run every step that does not depend on it"
	@echo "    VERIFY_CACHE=1         hash every file of the cached source against its manifest"
	@echo "make verify-all [-jN]      every kernel of kernels.list"
	@echo "make backport TREE=<path> NAME=<X.Y> [BUG=<Debian bug>]  generate backports/X.Y/ with the semantic patch"
	@echo "make bundle KERNEL=<name>  verify, then write results/<name>/bundle/ (kernel, initramfs, LAVA jobs)"
	@echo "make send [KERNEL=7.3] [TO=..] [CC=..] [SEND=1]  series/ -> results/send/vN/*.eml via b4"
	@echo "    recipients from the tree's get_maintainer.pl unless TO=/CC=; signed with your git identity"
	@echo "make am MBOX=<file> | MSGID=<id>   import a posted revision into series/ (old one in series/old/)"
	@echo "make trailers MBOX=<replies>       collect Reviewed-by/Tested-by into series/"
	@echo "make range-diff [FROM=vN]          series/old/vN (default: the previous revision kept) against series/"
	@echo "make check                 the tests"
	@echo "make bench                 naive flow vs make verify cold and warm -> docs/benchmarks.md"
	@echo "make matrix-github|matrix-gitlab  CI matrices (build/kverify matrix --format ... [--shard I/N])"
	@echo "make sweep [ONLY=linux-source-X.Y=VERSION[@SUITE]]  fetch..cocci on every linux-source version (docs/sweep.md)"
	@echo "make list                  the kernels"
	@echo "make deps                  install every Debian package the project uses"
	@echo "Environment: KVERIFY_CACHE (cache directory), KVERIFY_DEBIAN_MIRROR,"
	@echo "KVERIFY_SECURITY_MIRROR (override the mirrors read from apt's sources),"
	@echo "KVERIFY_BUSYBOX (the guest's static busybox, default /bin/busybox)"

clean:
	rm -rf build results
