#!/bin/bash
# Adding a command is a file and a line: a copy of this repository gets
# tests/cmd/cmd_hello.c as tools/cmd/cmd_hello.c and "COMMAND(hello)" in
# tools/cmd/commands.h, is built, and its kverify runs the command with
# its options and the common ones, prints its --help from its table, and
# has the other commands refuse its option.  A make variable is then a
# word of the Makefile's KV_VARS and a row of make_vars[]
# (tools/cmd/variables.c): make passes WHO= on as $KVERIFY_WHO, "kverify
# hello --env" takes it as --who, and --help lists it.  Seconds, after the
# copy's build.
# lane: 2
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

plan 7
copy=$TMP/repo
repo_copy "$copy"
kv() { (cd "$copy" && ./build/kverify "$@"); }

test_expect_success 'the copy with cmd_hello.c and its line of commands.h builds' '
	cp tests/cmd/cmd_hello.c "$copy/tools/cmd/" &&
	echo "COMMAND(hello)" >> "$copy/tools/cmd/commands.h" &&
	(cd "$copy" && make -s build/kverify) > "$TMP/make.out" 2>&1 ||
	{ cat "$TMP/make.out"; false; }
'
test_expect_success 'kverify hello runs, with its option and a common one' '
	kv --list other.list hello --who kernel > "$TMP/out" &&
	grep -qx "hello, kernel, from other.list" "$TMP/out" &&
	kv hello > "$TMP/out" && grep -qx "hello, world, from kernels.list" "$TMP/out"
'
test_expect_success 'kverify hello --help: its usage, its option with its help, the common ones' '
	kv hello --help > "$TMP/help" && cat "$TMP/help" &&
	head -n 1 "$TMP/help" | grep -qx "usage: kverify hello \[--who NAME\]" &&
	grep -qx "  --who NAME           whom to greet (default world)" "$TMP/help" &&
	grep -q "^  --cache DIR  " "$TMP/help" && ! grep -q -- "--skip" "$TMP/help"
'
test_expect_success 'another command refuses --who, and hello refuses theirs: exit 2' '
	{ kv list --who x > "$TMP/list.out" 2>&1; rc=$?; } &&
	[ $rc = 2 ] && grep -q "^kverify: list takes no --who" "$TMP/list.out" &&
	{ kv hello --skip sim > "$TMP/hello.out" 2>&1; rc=$?; } &&
	[ $rc = 2 ] && grep -q "^kverify: hello takes no --skip" "$TMP/hello.out"
'
test_expect_success 'a make variable: WHO in KV_VARS, a row of make_vars[], and the copy builds' - <<\EOT
	sed -i 's/^KV_VARS := /KV_VARS := WHO /' "$copy/Makefile" &&
	sed -i 's/^static const struct make_var make_vars\[\] = {$/&\n\tMAKE_OPTION("hello", "KVERIFY_WHO", "--who", "WHO"),/' \
		"$copy/tools/cmd/variables.c" &&
	[ "$(diff Makefile "$copy/Makefile" | grep -c "^>")" = 1 ] &&
	[ "$(diff tools/cmd/variables.c "$copy/tools/cmd/variables.c" | grep -c "^>")" = 1 ] &&
	(cd "$copy" && make -s build/kverify) > "$TMP/make.out" 2>&1 ||
	{ cat "$TMP/make.out"; false; }
EOT
test_expect_success 'make passes WHO= on as KVERIFY_WHO, raw; hello --env takes it as --who' '
	make -C "$copy" -s -p -n list "WHO=kernel \$(info x)" 2> /dev/null > "$TMP/p" &&
	grep -qx "KVERIFY_WHO := kernel \$\$(info x)" "$TMP/p" &&
	KVERIFY_WHO=kernel kv hello --env > "$TMP/out" && grep -qx "hello, kernel, from kernels.list" "$TMP/out" &&
	KVERIFY_WHO= kv hello --env > "$TMP/out" && grep -qx "hello, world, from kernels.list" "$TMP/out"
'
test_expect_success 'kverify --help lists WHO= as hello --who' '
	kv --help > "$TMP/help" && grep -qx "  WHO=                   hello --who" "$TMP/help"
'
done_testing
