#!/bin/bash
# Adding a command is a file and a line: a copy of this repository gets
# tests/cmd/cmd_hello.c as tools/cmd/cmd_hello.c and "COMMAND(hello)" in
# tools/cmd/commands.h, is built, and its kverify runs the command with
# its options and the common ones, prints its --help from its table, and
# has the other commands refuse its option.  Seconds, after the copy's
# build.
# lane: 2
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

plan 4
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
done_testing
