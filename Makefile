# SPDX-License-Identifier: GPL-2.0
#
# make verify KERNEL=<name>   the whole pipeline for one kernel
# make check check-kernels    the tests: without kernels, then with them
# make check-all              both, in two lanes side by side (what CI runs)
# make help                   everything else: the "## " lines of this file
#
# Values given on the command line (KERNEL=, BUILD=, ...) are data: they
# reach the driver through the environment, unexpanded, never through a
# shell command line.

# Every variable given on the command line, or as a definition in
# $MAKEFLAGS, first: each becomes a simple variable holding its text as
# given, so that no reference below (a prerequisite list, a recipe, make
# help's) expands a $(shell ...) in it.  The text itself is what GNU make
# read: make expands $MAKEFLAGS of the environment before it reads any
# makefile (make -f /dev/null does it too), which no makefile can prevent.
# (A loop's own variable is the loop's inside it: each loop's is looked at
# outside it.)
override KV_GIVEN := $(foreach kv_a,$(.VARIABLES),$(if $(filter command line,$(origin $(kv_a))),$(kv_a))) \
	$(if $(filter command line,$(origin kv_a)),kv_a)
$(foreach kv_b,$(filter-out MAKEFLAGS MAKEOVERRIDES MFLAGS kv_b,$(KV_GIVEN)),$(eval override $(kv_b) := $$(value $(kv_b))))
$(if $(filter kv_b,$(KV_GIVEN)),$(eval override kv_b := $$(value kv_b)))
override SHELL := /bin/sh
override export KV_MAKEFILE := $(firstword $(MAKEFILE_LIST))

KVERIFY := build/kverify
# The program make runs as kverify (build/kverify; a test may name a stand-in):
# the recipes run it by that name, from the environment.
override export KV_KVERIFY := $(KVERIFY)
# Made safe for C by build/version.c's recipe, as one given on the command line is.
KVERIFY_VERSION := $(shell git describe --always --dirty 2>/dev/null)
# The compiler and its flags (HOSTCC=, CFLAGS=, from the command line or
# the environment) are text too: the recipes get them in the environment,
# where the shell splits them into words (set -f: no file name patterns)
# and expands nothing.  Headers are named from tools/: "lib/strbuf.h".
override export KV_HOSTCC := $(if $(value HOSTCC),$(value HOSTCC),cc)
override export KV_CFLAGS := -std=gnu11 -D_GNU_SOURCE -Wall -Wextra -Werror -Itools \
	$(if $(filter undefined,$(origin CFLAGS)),-O2 -g,$(value CFLAGS))
override KV_CC = set -f; $$KV_HOSTCC $$KV_CFLAGS
# The driver's folders (tools/sim/ and tools/guest/ are not the driver's:
# the sim step and the guest build them).
override SRC_DIRS := tools tools/cmd tools/core tools/lib tools/sources tools/debian tools/kernels tools/steps tools/b4
override SRCS := $(foreach d,$(SRC_DIRS),$(wildcard $(d)/*.c))
# An object per source file, in one folder (no two share a name), and the
# headers each one read (-MMD), so an edit recompiles what it touches.
override OBJS := $(addprefix build/obj/,$(notdir $(SRCS:.c=.o))) build/obj/version.o
vpath %.c $(SRC_DIRS)

# Debian packages, by job.
override DEPS_BUILD := gcc make libc6-dev
override DEPS_VERIFY := $(DEPS_BUILD) quilt coccinelle perl python3 bc bison flex \
	libelf-dev libssl-dev cpio xz-utils apt dpkg git diffutils \
	qemu-system-x86 busybox-static uuid-dev dwarves mmdebstrap bubblewrap
override DEPS_CHECK := $(DEPS_VERIFY) procps ccache libcmocka-dev clang valgrind python3-yaml python3-jsonschema rsync git-buildpackage lintian \
	lava-common lava-dispatcher b4 git-filter-repo strace chromium

# Command-line values are data, whatever their names.  make would expand
# a command-line variable to put it in a recipe's environment, and would
# pass it on in MAKEFLAGS, where the kernel's make that kverify runs would
# define and expand it: so none is exported as given, MAKEFLAGS carries
# none, and the driver gets each as the raw text of a KVERIFY_* variable.
# KVERIFY_* and BENCH_* given on the command line are passed on as they
# are, as data too.
override KV_PASSED := $(filter KVERIFY_% BENCH_%,$(KV_GIVEN))
$(foreach kv_b,$(KV_PASSED),$(eval override export $(kv_b) := $$(value $(kv_b))))
unexport $(filter-out $(KV_PASSED) KV_MAKEFILE KV_KVERIFY KV_HOSTCC KV_CFLAGS,$(KV_GIVEN))
MAKEOVERRIDES :=

# The git description above, or one given on the command line (a tree
# without git).
KV_VERSION := $(value KVERIFY_VERSION)
# make's variables that kverify reads, each as VAR (read as $KVERIFY_VAR)
# or VAR:NAME (read as $KVERIFY_NAME): the one list of them here; kverify's
# own is make_vars[] in tools/cmd/variables.c.  Each reaches kverify as the
# raw text given, and none is exported under its own name.  verify-all's
# own sub-make (KV_INHERIT=1) finds them in its environment.
KV_VARS := KERNEL:TARGETS BUILD SKIP CONFIG BOOT TREE:BACKPORT_TREE \
	NAME:BACKPORT_NAME BUG:BUG_DEBIAN MBOX MSGID TO CC FROM SEND REFLECT \
	RESEND CCACHE KCC:KERNEL_CC KHOSTCC:KERNEL_HOSTCC KEEP_GOING \
	VERIFY_CACHE FORCE ONLY:SWEEP_ONLY REQUIRE FLAVOURS FORMAT ARTIFACTS DEST
unexport $(foreach kv_b,$(KV_VARS),$(firstword $(subst :, ,$(kv_b)))) KVERIFY_VERSION
ifeq ($(filter KV_INHERIT,$(KV_GIVEN)),)
# CC only as given on the command line (make send CC=...: recipients);
# make's default CC=cc is not one, and kverify is built with HOSTCC.
$(foreach kv_b,$(KV_VARS),$(eval export KVERIFY_$(lastword $(subst :, ,$(kv_b))) := \
	$$(if $$(filter-out CC,$(firstword $(subst :, ,$(kv_b))))$$(filter CC,$$(KV_GIVEN)),$$(value $(firstword $(subst :, ,$(kv_b)))))))
endif

.PHONY: all verify verify-all verify-each bundle backport debian-patches send am trailers range-diff reroll regenerate \
	edit series \
	check check-kernels check-all check-alone bench sweep list matrix-github matrix-gitlab help clean \
	deps deps-build deps-verify deps-check unit FORCE

all: $(KVERIFY)

# Two makes may run in one checkout at once (two make am, a make check
# beside a make verify): each writes its outputs under a name of its own
# (the shell's $$, its pid) and renames them into place, so neither reads the
# other's half-written file, nor removes the other's temporary one.
$(KVERIFY): $(OBJS)
	$(KV_CC) -o $@.$$$$ $(OBJS) && mv -f $@.$$$$ $@

# The .d of an object whose source moved or went still names it: make
# remakes that object (as -MP has it do for a header) instead of stopping,
# from the source SRCS has now ($< may be the old name).
tools/%.c: ;

build/obj/%.o: %.c | build/obj
	$(KV_CC) -MMD -MP -MF $(@:.o=.d) -MT $@ -c -o $@.$$$$ $(filter %/$*.c,$(SRCS)) && mv -f $@.$$$$ $@

build/obj/version.o: build/version.c | build/obj
	$(KV_CC) -c -o $@.$$$$ $< && mv -f $@.$$$$ $@

# Rewritten only when the description changes, so that a commit relinks
# kverify without recompiling it.
build/version.c: export KVERIFY_VERSION_TEXT := $(KV_VERSION)
build/version.c: FORCE | build/obj
	@v=$$(printf '%s' "$$KVERIFY_VERSION_TEXT" | tr -cd 'A-Za-z0-9._+-') && \
	printf '#include "version.h"\nconst char kverify_version[] = "%s";\n' \
		"$${v:-unknown}" > $@.$$$$ && \
	if cmp -s $@.$$$$ $@; then rm -f $@.$$$$; else mv -f $@.$$$$ $@; fi

# Where the compiler (cc, or HOSTCC=) is, make builds without asking
# Debian's package database; elsewhere tools/deps installs gcc, make and
# libc6-dev or prints the apt-get line.
build/obj:
	@command -v "$$KV_HOSTCC" > /dev/null || tools/deps $(DEPS_BUILD)
	@mkdir -p $@

-include $(wildcard build/obj/*.d)

deps-build:
	@tools/deps $(DEPS_BUILD)

deps-verify:
	@tools/deps $(DEPS_VERIFY)

deps-check:
	@tools/deps $(DEPS_CHECK)

## make verify KERNEL=<name>  fetch, apply, sim, checkpatch, cocci, build, kabi, selftests, boot
##                            for one kernel of kernels.list (a name or unique prefix: make list)
##     BUILD=objects          only build arch/x86/kvm/ (no boot)
##     SKIP=step,step         steps not to run
##     CONFIG=<fragment>      a config fragment instead of configs/kvm-guest.config
##     BOOT=auto|distro|own   deb: targets boot Debian's kernel with the patched KVM modules
##                            and the kabi step (auto, the default: our own kernel, saying why,
##                            where Debian's compiler is missing); own: our allnoconfig bzImage
##     CCACHE=0               no ccache in front of gcc (by default where ccache is installed:
##                            its store in the cache, hits and misses in report.json)
##     KCC=, KHOSTCC=         the kernel's compilers (distcc, icecream)
##     KEEP_GOING=1           after a failure, run every step that does not depend on it
##     VERIFY_CACHE=1         hash every file of the cached source against its manifest,
##                            and run the steps that keep a PASS (sim, checkpatch, cocci, boot)
##     FORCE=1                run the steps that keep a PASS even when their inputs are unchanged
##     REQUIRE=pmu            a guest PMU test that SKIPs (no PMU here) FAILs: for labs with one
##     FLAVOURS=amd64,rt-amd64  also Debian's cloud-amd64/rt-amd64: the modules built against each
##                            flavour's headers, kABI-checked and booted, rows config:<flavour>...
##     FORMAT=kcidb           also results/<name>/kcidb.json: the run as KernelCI KCIDB data
##                            (docs/report.md), for kcidb-submit
verify: deps-verify $(KVERIFY)
	@if [ -z "$$KVERIFY_TARGETS" ]; then \
		echo "usage: make verify KERNEL=<name>; the names:" >&2; \
		"$$KV_KVERIFY" list >&2; exit 2; fi
	+"$$KV_KVERIFY" verify --env; rc=$$?; \
		[ $$rc = 2 ] || "$$KV_KVERIFY" summary || :; exit $$rc

## make verify-all [-jN]      every kernel of kernels.list, N side by side; verify and verify-all
##                            then write results/summary.md and results/index.html (kverify summary;
##                            not after a usage error, exit 2, which ran nothing)
verify-all: deps-verify $(KVERIFY)
	+@$(MAKE) --no-print-directory -k verify-each KV_INHERIT=1 \
		VERIFY_NAMES="$$("$$KV_KVERIFY" list --names)"; rc=$$?; \
		"$$KV_KVERIFY" summary || :; exit $$rc

# The names verify-all passes are kernels.list's (letters, digits, ._-):
# anything else in VERIFY_NAMES (a ';' would start a recipe in the rule
# line below) is refused, and a name reaches kverify in its environment.
override KV_NAME_CHARS := a b c d e f g h i j k l m n o p q r s t u v w x y z \
	A B C D E F G H I J K L M N O P Q R S T U V W X Y Z 0 1 2 3 4 5 6 7 8 9 . _ -
override kv_strip = $(if $(2),$(call kv_strip,$(subst $(firstword $(2)),,$(1)),$(wordlist 2,$(words $(2)),$(2))),$(1))
override KV_NAMES := $(value VERIFY_NAMES)
override KV_NAMES_BAD := $(strip $(call kv_strip,$(KV_NAMES),$(KV_NAME_CHARS)))
ifneq ($(KV_NAMES_BAD),)
ifneq ($(filter verify-each,$(MAKECMDGOALS)),)
$(error VERIFY_NAMES holds characters no name of kernels.list has ($(KV_NAMES_BAD)): run make verify-all, which passes the names kverify list --names prints)
endif
override KV_NAMES :=
endif
verify-each: $(addprefix verify-one/,$(KV_NAMES))

# An interrupted target (exit 130) stops the make that runs it, and so
# the whole verify-all, also where make ignores SIGINT itself (started in
# the background by a script): no target starts after an interrupt.
verify-one/%: export KVERIFY_TARGETS = $*
verify-one/%: $(KVERIFY)
	+"$$KV_KVERIFY" verify --env || { rc=$$?; \
		[ $$rc != 130 ] || kill -TERM $$PPID; exit $$rc; }

## make bundle KERNEL=<name> [ARTIFACTS=<URL>]
##                            verify, then write results/<name>/bundle/ (kernel, initramfs, LAVA
##                            jobs that fetch them from URL, default file:// of that directory;
##                            docs/lab.md)
bundle: deps-verify $(KVERIFY)
	+"$$KV_KVERIFY" verify --env --bundle

## make backport TREE=<path> NAME=<X.Y> [BUG=<Debian bug>]
##                            generate backports/X.Y/ with the semantic patch
backport: deps-verify $(KVERIFY)
	@"$$KV_KVERIFY" backport --env

## make debian-patches DEST=<dir> [KERNEL=<name>] [BUG=<Debian bug>]
##                            each series as debian/patches: DEST/<name>/bugfix/x86/ + series
debian-patches: deps-verify $(KVERIFY)
	@"$$KV_KVERIFY" debian-patches --env

## make send [KERNEL=7.3] [TO=..] [CC=..] [SEND=1 [REFLECT=1]] [RESEND=1]
##                            series/ -> results/send/vN/*.eml via b4, checked; SEND=1 mails them;
##                            recipients from the tree's get_maintainer.pl unless TO=/CC=,
##                            signed with your git identity
## make am MBOX=<file> | MSGID=<id>   import a posted revision into series/ (old one in series/old/)
## make trailers MBOX=<replies>       collect Reviewed-by/Tested-by into series/
## make range-diff [FROM=vN]          series/old/vN (default: the previous revision kept) against series/
## make reroll                        the next revision: posted vN kept as sent in series/old/vN,
##                            the cover's "Changes in vN+1:" and "Link to vN:" started
## make regenerate                    series/ and backports/X.Y rewritten from the semantic patch
##                            (cocci/) where it covers the change; names a variant needing a hand
regenerate: deps-verify $(KVERIFY)
	@"$$KV_KVERIFY" regenerate --env

## make edit [FORCE=1]               series/ as a b4 prep branch in the cache (git commit --amend,
##                            git rebase -i there); FORCE=1 remakes it over commits of yours
## make series                        series/ written back from make edit's branch (refused when
##                            series/ changed since the branch was made)
send am trailers range-diff reroll edit series: deps-verify $(KVERIFY)
	@tools/deps b4 git-filter-repo
	@"$$KV_KVERIFY" $@ --env

## make check                 the tests that boot and build no kernel (unit, fixtures, Debian's
##                            trees through fetch, sim, checkpatch and cocci): minutes once fetched
check: deps-check $(KVERIFY)
	@tests/run check

## make unit                  the driver's unit tests (cmocka), plain and under ASan+UBSan: seconds
unit: deps-check $(KVERIFY)
	@KVERIFY_TESTS=tests/t0010-unit.t tests/run

## make check-kernels         the tests that build and boot kernels (own and Debian's)
check-kernels: deps-check $(KVERIFY)
	@tests/run kernels

## make check-all             both tiers in two lanes side by side, each with its own cache
##                            (tests/lane-N in the cache) and copy of the repository (tests/lanes);
##                            CI runs this
check-all: deps-check $(KVERIFY)
	@tests/lanes

## make check-alone           every test script alone: its own clone, built from nothing, and an
##                            empty cache of its own (tests/alone; hours: each kernel script
##                            builds its kernel); KVERIFY_ALONE_JOBS=2 at a time
check-alone: deps-check $(KVERIFY)
	@tests/alone

## make bench                 naive flow vs make verify cold and warm, verify-all and sweep cold -> docs/benchmarks.md
bench: deps-verify $(KVERIFY)
	@tools/bench/bench

## make sweep [ONLY=linux-source-X.Y=VERSION[@SUITE]]
##                            fetch..cocci on every linux-source version of the archive (docs/sweep.md);
##                            make -jN sweep checks N versions at once
# "+": make hands its jobserver to kverify, which takes a token a version.
sweep: deps-verify $(KVERIFY)
	+@"$$KV_KVERIFY" sweep --env; rc=$$?; \
		[ $$rc = 2 ] || "$$KV_KVERIFY" summary || :; exit $$rc

## make list                  the kernels
list: $(KVERIFY)
	@"$$KV_KVERIFY" list

## make matrix-github|matrix-gitlab  CI jobs (build/kverify matrix --ci ... [--shard I/N])
##     KVERIFY_CI_IMAGE=, KVERIFY_CI_TAGS=, KVERIFY_CI_TIMEOUT=  image, runner tags, minutes
matrix-github matrix-gitlab: $(KVERIFY)
	@"$$KV_KVERIFY" matrix --ci $(subst matrix-,,$@)

## make help                  this text
## make deps                  install every Debian package the project uses
deps: deps-check

## make clean                 remove build/ and results/ (the cache stays)
clean:
	rm -rf build results

## Environment: KVERIFY_CACHE (cache directory), KVERIFY_DEBIAN_MIRROR,
## KVERIFY_SECURITY_MIRROR (override the mirrors read from apt's sources),
## KVERIFY_BUSYBOX (the guest's static busybox, default /bin/busybox)
## Exit status of every command: 0 pass, 1 the patch failed a step, 2 bad input or usage,
## 3 a tool or the machine failed (not the patch), 130 interrupted
help:
	@sed -n 's/^## \{0,1\}//p' "$$KV_MAKEFILE"
