#!/bin/bash
# Bad and hostile input to the driver and to make: exit 2 with file:line,
# what is wrong and what to do; values are data, never run.
. "$(dirname "$0")/lib.sh"

plan 32
L=$TMP/k.list
canary=$TMP/canary

# bad_list NAME CONTENT-PRINTF-FORMAT EXPECTED-MESSAGE
bad_list() {
	fmt=$2 want=$3
	test_expect_success "$1" '
		printf "$fmt" > "$L" &&
		{ "$KVERIFY" --list "$L" verify x > "$TMP/out" 2>&1; rc=$?; } &&
		echo "exit $rc" && cat "$TMP/out" &&
		[ $rc = 2 ] && grep -q -- "$want" "$TMP/out"
	'
}

bad_list "missing field" 'x deb:linux-source-6.1@sid\n' "k.list:1: missing SERIES field"
bad_list "unknown source kind" '\nx svn:foo series\n' "k.list:2: unknown source kind 'svn:'"
bad_list "duplicate name" 'x dir:/ series\nx dir:/ series\n' "k.list:2: duplicate target name 'x' (first defined at line 1)"
bad_list "CRLF" 'x dir:/ series\r\n' "k.list:1: carriage return"
bad_list "tabs and spaces" 'x\tdir:/ series\n' "k.list:1: fields are separated by both tabs and spaces"
bad_list "NUL byte" 'x dir:/ ser\000ies\n' "k.list:1: NUL byte at column 12"
bad_list "invalid UTF-8" 'x dir:/ n/a: \377\n' "k.list:1: invalid UTF-8"
head -c 65536 /dev/zero | tr '\0' x > "$L"
"$KVERIFY" --list "$L" verify x > "$TMP/out" 2>&1
rc=$?
test_expect_success "64 KiB line (exit $rc)" '
	tail -n 5 "$TMP/out" &&
	[ $rc = 2 ] && grep -q "k.list:1: line is 65536 bytes long" "$TMP/out"
'

# Hostile values: a canary file proves nothing ran.
bad_list "command substitution in a name" "\$(touch $canary) dir:/ series\n" "target name"
bad_list "semicolon in a series path" "x dir:/ series;touch${IFS:0:1}$canary\n" "k.list:1"
bad_list "../ in a series path" 'x dir:/ ../../etc\n' "must not contain '..'"
bad_list "option injection in a git URL" 'x git:--upload-pack=touch series\n' "does not start with '-'"
test_expect_success 'no canary from kernels.list values' '
	[ ! -e "$canary" ]
'

# git: takes local paths, https, git and ssh; a remote helper (fd::, ext::)
# is refused before git runs (fd::0 used to hang the fetch for an hour).
for url in fd::0 "ext::sh%-c%touch%$canary"; do
	printf 'x git:%s series\n' "$url" > "$L"
	timeout 20 "$KVERIFY" --list "$L" verify --cache "$TMP/cache" \
		--results "$TMP/r" x > "$TMP/out" 2>&1
	rc=$?
	test_expect_success "git:${url%%::*}:: is refused with file:line, nothing run (exit $rc)" - <<\EOT
	tail -n 5 "$TMP/out" &&
	[ $rc = 2 ] && grep -q "k.list:1: git source '$url' names a git remote helper" "$TMP/out" &&
	[ ! -e "$canary" ]
EOT
done

# 100,000 targets: the duplicate check is linear (quadratic, it took 125 s).
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "t%d\tdir:/\tn/a: x\n", i
	     print "t4711\tdir:/\tn/a: x" }' > "$L"
timeout 20 "$KVERIFY" --list "$L" verify x > "$TMP/out" 2>&1
rc=$?
test_expect_success "a 100,000-line kernels.list is checked within 20 s (exit $rc)" - <<\EOT
	tail -n 5 "$TMP/out" &&
	[ $rc = 2 ] && grep -q "k.list:100001: duplicate target name 't4711' (first defined at line 4712)" "$TMP/out"
EOT

# make's KERNEL= and friends are data too.
make --no-print-directory verify "KERNEL=6.1;touch $canary" > "$TMP/out" 2>&1
rc=$?
test_expect_success "make verify KERNEL='6.1;touch ...' exits 2 naming it (exit $rc)" - <<\EOT
	tail -n 5 "$TMP/out" &&
	[ $rc = 2 ] && grep -q "unknown target '6.1;touch" "$TMP/out"
EOT
make --no-print-directory verify "KERNEL=\$(shell touch $canary) \`touch $canary\` ../x" > "$TMP/out" 2>&1
rc=$?
test_expect_success "make verify KERNEL='\$(shell ...)', backticks, ../: exit 2, no canary (exit $rc)" '
	tail -n 5 "$TMP/out" &&
	[ $rc = 2 ] && [ ! -e "$canary" ]
'
make --no-print-directory verify KERNEL=9.9 > "$TMP/out" 2>&1
rc=$?
test_expect_success "make verify KERNEL=9.9 exits 2, names the known targets and how to add one (exit $rc)" - <<\EOT
	tail -n 5 "$TMP/out" &&
	[ $rc = 2 ] && grep -q "unknown target '9.9'; known targets: 5.10 6.1 6.12 7.2 7.3" "$TMP/out" &&
	grep -q "^kverify: KERNEL=9.9: to add a kernel, give it a line in kernels.list, e.g. .9.9 deb:linux-source-X.Y@SUITE auto. .*make backport TREE=<its tree> NAME=9.9" "$TMP/out"
EOT
make --no-print-directory verify KERNEL=6.12 "BUILD=\$(shell touch $canary)" > "$TMP/out" 2>&1
rc=$?
test_expect_success "make verify BUILD='\$(shell ...)': exit 2, no canary (exit $rc)" '
	tail -n 5 "$TMP/out" &&
	[ $rc = 2 ] && [ ! -e "$canary" ] && grep -q "BUILD=.*: not a build: kernel or objects" "$TMP/out"
'
make --no-print-directory backport "TREE=\$(touch $canary);\`touch $canary\`" NAME=6.6 > "$TMP/out" 2>&1
rc=$?
test_expect_success "make backport TREE='\$(...);\`...\`': refused as no kernel tree, no canary (exit $rc)" '
	tail -n 5 "$TMP/out" &&
	[ $rc != 0 ] && [ ! -e "$canary" ] && [ ! -e backports/6.6 ]
'
make --no-print-directory backport TREE=/usr/src "NAME=../../tmp/escape" > "$TMP/out" 2>&1
rc=$?
test_expect_success "make backport NAME=../../tmp/escape is refused: no path escapes backports/ (exit $rc)" '
	tail -n 5 "$TMP/out" &&
	[ $rc != 0 ] && [ ! -e /tmp/escape ] && grep -q "NAME=<X.Y> (letters, digits, ._-)" "$TMP/out"
'
make --no-print-directory am "MBOX=\$(touch $canary) ; \`touch $canary\`" > "$TMP/out" 2>&1
rc=$?
test_expect_success "make am MBOX='\$(...) ; \`...\`': fails as a missing file, no canary (exit $rc)" '
	tail -n 5 "$TMP/out" &&
	[ $rc != 0 ] && [ ! -e "$canary" ]
'

# The environment is read once, in range, like the command line.
test_expect_success 'KVERIFY_SIM_TRACES=lots: exit 2, naming the variable and its range' '
	KVERIFY_SIM_TRACES=lots "$KVERIFY" list > "$TMP/out" 2>&1; rc=$?
	[ $rc = 2 ] &&
	grep -x "kverify: KVERIFY_SIM_TRACES is a number from 1 to 100000000, not .lots." "$TMP/out"
'
test_expect_success 'KVERIFY_TEST_BOOT_TIMEOUT=0 is out of range (exit 2); 30 is taken' '
	KVERIFY_TEST_BOOT_TIMEOUT=0 "$KVERIFY" list > "$TMP/out" 2>&1; rc=$?
	[ $rc = 2 ] && grep "KVERIFY_TEST_BOOT_TIMEOUT is a number from 1 to 86400" "$TMP/out" &&
	KVERIFY_TEST_BOOT_TIMEOUT=30 "$KVERIFY" list > /dev/null
'
# Every variable README names for make, and any other name, is data: given
# as $(shell ...) on the command line it runs nothing, neither in our make
# nor in a make below it (MAKEFLAGS carries no definition), and the
# driver gets the raw text.
test_expect_success 'make help with every README variable, and an unknown one, as $(shell touch ...): nothing runs' '
	names=$(grep -ohE "\b[A-Z][A-Z0-9_]*=" README.md docs/*.md | tr -d = | sort -u | grep -vx "KVERIFY_CACHE\|KVERIFY_TESTS_CACHE") &&
	[ -n "$names" ] && echo "$names" | grep -qx ONLY && echo "$names" | grep -qx CC &&
	args=() && for n in $names FOO_NOBODY_NAMED; do args+=("$n=\$(shell touch $TMP/ran-$n)"); done &&
	make --no-print-directory help "${args[@]}" > "$TMP/out" 2>&1 &&
	! ls "$TMP"/ran-* 2> /dev/null
'
# So is every variable the Makefile reads (its own too, and CFLAGS,
# HOSTCC, VERIFY_NAMES), given on the command line, as a definition in
# $MAKEFLAGS (written $$ for the $ that make decodes it to: make itself
# expands what $MAKEFLAGS holds before it reads a makefile) or in the
# environment: make help runs none of it.
test_expect_success 'make help with each variable the Makefile reads as $(shell touch ...), on the command line, in MAKEFLAGS or the environment: nothing runs' - <<\EOT
	names=$(grep -oE '\$\((value |origin )?[A-Za-z_][A-Za-z0-9_]*\)' Makefile |
		sed -E 's/^\$\((value |origin )?//; s/\)$//' | sort -u) &&
	echo "$names" | grep -qx KVERIFY && echo "$names" | grep -qx SRC_DIRS &&
	ran= &&
	for n in $names CFLAGS HOSTCC VERIFY_NAMES KV_GIVEN MAKEFILE_LIST SHELL v X; do
		{ make --no-print-directory help "$n=\$(shell touch $TMP/ran-cl-$n)" > /dev/null 2>&1; rc=$?; } &&
		{ MAKEFLAGS="$n=\$\$(shell touch $TMP/ran-mf-$n)" make --no-print-directory help > /dev/null 2>&1; rc=$?; } &&
		case $n in
		SHELL | MAKE* | CURDIR | PATH | HOME) ;;
		*) { env "$n=\$(shell touch $TMP/ran-env-$n)" make --no-print-directory help > /dev/null 2>&1; rc=$?; } ;;
		esac
	done &&
	ls "$TMP" | grep "^ran-" | tr "\n" " " &&
	! ls "$TMP"/ran-* 2> /dev/null
EOT
test_expect_success 'CFLAGS= and HOSTCC= reach the compiler as words: backticks, $(...) and ; in them run nothing' - <<\EOT
	{ make --no-print-directory -B build/obj/strbuf.o \
		"CFLAGS=-O2 \`touch $canary\` \$(touch $canary);touch $canary" > "$TMP/out" 2>&1; rc=$?; } &&
	tail -n 3 "$TMP/out" && [ $rc != 0 ] && [ ! -e "$canary" ] &&
	make --no-print-directory -B build/obj/strbuf.o "HOSTCC=env cc" \
		"CFLAGS=-O0 -g3 -DKV_CFLAGS_REACHED=1" > "$TMP/out" 2>&1 &&
	grep -q KV_CFLAGS_REACHED build/obj/strbuf.o &&
	make --no-print-directory -B build/obj/strbuf.o > "$TMP/out" 2>&1
EOT
test_expect_success 'make verify-each with a ; in VERIFY_NAMES (or its own KV_NAMES): exit 2 naming it, nothing runs' - <<\EOT
	{ make --no-print-directory verify-each KV_INHERIT=1 "VERIFY_NAMES=x ; touch $canary" > "$TMP/out" 2>&1; rc=$?; } &&
	cat "$TMP/out" && [ $rc = 2 ] && [ ! -e "$canary" ] &&
	grep -q "VERIFY_NAMES holds characters no name of kernels.list has" "$TMP/out" &&
	make --no-print-directory verify-each KV_INHERIT=1 "KV_NAMES=x ; touch $canary" > "$TMP/out" 2>&1 &&
	[ ! -e "$canary" ]
EOT
test_expect_success 'what kverify and its children get: the raw KVERIFY_* value, no command-line definition in MAKEFLAGS or the environment' '
	printf "#!/bin/sh\nenv > %s\n" "$TMP/env" > "$TMP/kverify-env" && chmod +x "$TMP/kverify-env" &&
	make --no-print-directory -j2 list KVERIFY="$TMP/kverify-env" "KERNEL=\$(shell touch $canary)" \
		"CC=\$(shell touch $canary)" "FOO_NOBODY_NAMED=\$(shell touch $canary)" \
		"KVERIFY_TESTS=\$(shell touch $canary) x" > "$TMP/out" 2>&1 &&
	cat "$TMP/env" | grep -E "^(MAKEFLAGS|KVERIFY_TARGETS|KVERIFY_TESTS|CC|KERNEL|FOO_NOBODY_NAMED)=" &&
	[ ! -e "$canary" ] &&
	grep -qxF "KVERIFY_TARGETS=\$(shell touch $canary)" "$TMP/env" &&
	grep -qxF "KVERIFY_TESTS=\$(shell touch $canary) x" "$TMP/env" &&
	! grep -qE "^(CC|KERNEL|FOO_NOBODY_NAMED)=" "$TMP/env" &&
	grep -q "^MAKEFLAGS=" "$TMP/env" && ! grep -q "^MAKEFLAGS=.* -- " "$TMP/env" &&
	! grep "^MAKEFLAGS=" "$TMP/env" | grep -q "FOO_NOBODY_NAMED\|KERNEL\|CC="
'
test_expect_success '--config outside the repository (.., absolute, through make): exit 2, the file is never read' '
	echo "first-line-of-a-secret" > "$TMP/secret" &&
	{ "$KVERIFY" verify --config "../../../../../../..$TMP/secret" 6.12 > "$TMP/out" 2>&1; [ $? = 2 ]; } &&
	grep -q "must not contain .\.\.." "$TMP/out" && ! grep -q first-line-of-a-secret "$TMP/out" &&
	{ make --no-print-directory verify KERNEL=6.12 "CONFIG=$TMP/secret" > "$TMP/out" 2>&1; [ $? = 2 ]; } &&
	grep -q "must be a relative path in this repository" "$TMP/out" && ! grep -q first-line-of-a-secret "$TMP/out"
'
test_expect_success 'a series line naming a missing patch: exit 2, the series file:line and what to do' '
	mkdir -p "$TMP/tree" miss &&
	printf "# the series\n\n0001-a.patch\n0002-gone.patch\n" > miss/series &&
	printf -- "--- a/README\n+++ b/README\n@@ -0,0 +1 @@\n+x\n" > miss/0001-a.patch &&
	printf "m dir:%s miss\n" "$TMP/tree" > "$L" &&
	{ "$KVERIFY" --list "$L" --results "$TMP/res" verify m > "$TMP/out" 2>&1; rc=$?; } &&
	cat "$TMP/out" && [ $rc = 2 ] &&
	grep -q "miss/series:4: patch .0002-gone.patch. listed in the series is missing: add the patch to miss/ or take the line out" "$TMP/out"
'
done_testing
