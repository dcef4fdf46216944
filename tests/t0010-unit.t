#!/bin/bash
# The driver's unit tests (cmocka), built plain and with ASan+UBSan.  A
# unit that includes a tool's .c, for its static functions (test_engine.c
# verify.c, to walk tables of its own steps; test_matrix.c matrix.c;
# test_bundle.c bundle.c), links
# with the driver's other objects, as make builds them.
# lane: 2
. "$(dirname "$0")/lib.sh"

UNITS="strbuf targets ktap run escape ident toolchain toolout apt symvers sandbox result parse_options b4 engine fsutil debversion manifest paths matrix modinfo report_read jobserver guard guard_walk sandbox_walk bundle"
LIBS="tools/lib/parse-options.c tools/b4/b4_text.c tools/lib/result.c tools/lib/sandbox.c tools/sources/targets.c tools/core/ktap.c tools/lib/run.c tools/lib/strbuf.c tools/lib/compat.c tools/lib/fsutil.c tools/lib/hash.c tools/lib/lock.c tools/lib/tree.c tools/lib/guard.c tools/lib/escape.c tools/core/ident.c tools/sources/toolchain.c tools/sources/apt.c tools/core/toolout.c tools/lib/usage.c tools/core/symvers.c tools/debian/debversion.c tools/sources/manifest.c tools/kernels/modinfo.c tools/report_read.c tools/lib/json.c tools/lib/jobserver.c"
CFLAGS="-std=gnu11 -D_GNU_SOURCE -Wall -Wextra -Werror -g -Itools"
plan $((2 * $(echo $UNITS | wc -w)))
make -s build/kverify > "$TMP/make.out" 2>&1 || diag < "$TMP/make.out"
# objects_but FILE: make's objects of today's sources (none a removed file
# left), but FILE's, which the unit includes, and main()'s.
objects_but() {
	local f objs=build/obj/version.o
	for f in tools/*.c tools/lib/*.c tools/sources/*.c tools/core/*.c tools/debian/*.c tools/kernels/*.c \
		tools/steps/*.c tools/b4/*.c; do
		f=${f##*/}
		case $f in "$1" | kverify.c) ;; *) objs="$objs build/obj/${f%.c}.o" ;; esac
	done
	echo "$objs"
}

for flavour in plain sanitizers; do
	extra=
	[ $flavour = sanitizers ] &&
		extra="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
	# LIBS compiled once a flavour: each unit links the same objects.
	libobjs= libs_ok=1
	for f in $LIBS; do
		o=$TMP/lib-$flavour/$(basename "${f%.c}").o
		mkdir -p "$TMP/lib-$flavour"
		# shellcheck disable=SC2086
		gcc $CFLAGS $extra -c -o "$o" "$f" >> "$TMP/cc-lib" 2>&1 || libs_ok=0
		libobjs="$libobjs $o"
	done
	[ $libs_ok = 1 ] || diag < "$TMP/cc-lib"
	for u in $UNITS; do
		bin=$TMP/test_$u-$flavour
		libs=$libobjs
		case $u in
		engine) libs=$(objects_but verify.c) ;;
		matrix) libs=$(objects_but matrix.c) ;;
		bundle) libs=$(objects_but bundle.c) ;;
		guard_walk) libs=${libobjs/ $TMP\/lib-$flavour\/guard.o/} ;;
		sandbox_walk) libs=${libobjs/ $TMP\/lib-$flavour\/sandbox.o/} ;;
		esac
		test_expect_success "$u ($flavour): builds, and its cmocka tests pass" - <<\EOT
	gcc $CFLAGS $extra -o "$bin" tests/unit/test_$u.c $libs -lcmocka &&
	CMOCKA_MESSAGE_OUTPUT=TAP ASAN_OPTIONS=detect_leaks=1 "$bin"
EOT
	done
done
done_testing
