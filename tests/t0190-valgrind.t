#!/bin/bash
# The driver under valgrind for one verify (an n/a target: fetch and the
# semantic patch), our own C passing 6.12's checkpatch --no-tree -f, and
# every header of tools/lib/ passing 6.12's kernel-doc: no
# warning, and every function the compiler sees declared in them has its
# kernel-doc comment; shown to reject a header with a parameter left out
# and one with a function left undocumented.
# lane: 2
. "$(dirname "$0")/lib.sh"

T=${KVERIFY_VALGRIND_TARGET:-5.10}
plan 5
test_lazy_prereq VALGRIND 'command -v valgrind'
test_expect_success VALGRIND "kverify verify $T is valgrind-clean" - <<\EOT
	valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
		--trace-children=no "$KVERIFY" verify --results "$TMP/r" $T > "$TMP/out" 2>&1
	rc=$? && echo "exit $rc" &&
	grep -A12 '==[0-9]*==' "$TMP/out" | head -n 28 &&
	[ $rc = 0 ]
EOT

# One checkpatch.pl, 6.12's, fetched if need be: whichever tree another
# script left in the cache would be a different checkpatch (5.10's warns
# of what 6.12's does not), and alone there is only 5.10.
src=$(cached_source 6.12)
cp=$src/scripts/checkpatch.pl
# The source is fetched from Debian's archive: it may not be had here.
test_lazy_prereq CHECKPATCH_6_12 'test -f "$cp"'
test_expect_success CHECKPATCH_6_12 "our C passes checkpatch --no-tree -f ($(basename "$(dirname "$(dirname "$cp")")"))" - <<\EOT
	{ perl "$cp" --no-tree --terse --show-types -f tools/*.[ch] tools/lib/*.[ch] tools/sources/*.[ch] \
		tools/core/*.[ch] tools/debian/*.[ch] tools/kernels/*.[ch] tools/steps/*.[ch] tools/b4/*.[ch] tools/cmd/*.[ch] \
		tools/sim/*.c tools/sim/*.h tools/guest/*.c tests/unit/*.c tests/fuzz/*.c tests/cmd/*.c \
		> "$TMP/cp" 2>&1 || :; } &&
	! grep -E 'ERROR|WARNING|CHECK' "$TMP/cp"
EOT

# Every header of tools/lib/: each function in it carries a kernel-doc
# comment, so a new header is held to it too.
HEADERS=$(cd tools/lib && ls -- *.h | sed 's/\.h$//')
kd=$src/scripts/kernel-doc
test_lazy_prereq KERNEL_DOC_6_12 'test -f "$kd"'

# kdoc_check DIR: for each of HEADERS in DIR/lib/, kernel-doc's warnings
# (-none -Wall), and "undocumented: NAME (HEADER)" for each function the
# compiler sees declared there (gcc -aux-info) that kernel-doc finds no
# comment for; nothing when all is well.
kdoc_check() {
	local dir=$1 h

	for h in $HEADERS; do
		perl "$kd" -none -Wall "$dir/lib/$h.h" 2>&1
		printf '#include "lib/%s.h"\n' "$h" > "$TMP/kd.c"
		${HOSTCC:-cc} -std=gnu11 -D_GNU_SOURCE -I"$dir" -fsyntax-only \
			-aux-info "$TMP/kd.aux" "$TMP/kd.c" 2>&1 || echo "cannot compile $h.h"
		sed -n "s|^/\* $dir/lib/$h\.h:[0-9]*:[A-Z]* \*/ [^(]*[ *]\([a-z_0-9]*\) (.*|\1|p" \
			"$TMP/kd.aux" | sort -u > "$TMP/kd.declared"
		[ -s "$TMP/kd.declared" ] || echo "no function found declared in $h.h"
		perl "$kd" -rst "$dir/lib/$h.h" 2> /dev/null |
			sed -n 's/^\.\. c:function:: .*[ *]\([a-z_0-9]*\) (.*/\1/p' |
			sort -u > "$TMP/kd.documented"
		comm -23 "$TMP/kd.declared" "$TMP/kd.documented" | sed "s/.*/undocumented: & ($h.h)/"
	done
}

test_expect_success KERNEL_DOC_6_12 "tools/lib's headers pass kernel-doc -none -Wall, every function documented" - <<\EOT
	kdoc_check tools > "$TMP/kd.out" &&
	cat "$TMP/kd.out" && [ ! -s "$TMP/kd.out" ]
EOT

mkdir -p "$TMP/kd/tools" && cp -r tools/lib "$TMP/kd/tools/"
test_expect_success KERNEL_DOC_6_12 'a header with a parameter left out of its comment is named' - <<\EOT
	perl -0pi -e 's/ \* \@len: How many\.\n//' "$TMP/kd/tools/lib/strbuf.h" &&
	! cmp -s tools/lib/strbuf.h "$TMP/kd/tools/lib/strbuf.h" &&
	kdoc_check "$TMP/kd/tools" > "$TMP/kd.out" &&
	cat "$TMP/kd.out" &&
	grep -q "strbuf.h:[0-9]*: warning: Function parameter or struct member .len. not described in .strbuf_add." "$TMP/kd.out"
EOT
test_expect_success KERNEL_DOC_6_12 'a function left without its comment is named' - <<\EOT
	cp tools/lib/strbuf.h "$TMP/kd/tools/lib/strbuf.h" &&
	perl -0pi -e 's|/\*\*\n \* path_has\(\).*?\*/\n||s' "$TMP/kd/tools/lib/run.h" &&
	! grep -q "path_has()" "$TMP/kd/tools/lib/run.h" &&
	grep -q "^int path_has(" "$TMP/kd/tools/lib/run.h" &&
	kdoc_check "$TMP/kd/tools" > "$TMP/kd.out" &&
	cat "$TMP/kd.out" &&
	[ "$(cat "$TMP/kd.out")" = "undocumented: path_has (run.h)" ]
EOT
done_testing
