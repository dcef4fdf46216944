#!/bin/bash
# lib.sh itself: test_expect_success runs a body in this shell (what it
# sets stays set; rc, out and p are the body's to use), reads one from a
# here-document with "-", skips on a missing prerequisite, and its
# chain-lint names a body whose lines are not joined by && (a failed check
# by default, a warning with KVERIFY_TEST_CHAIN_LINT=0), and passes the
# joins git's test-lib accepts; a script with a failed check keeps its
# $TMP and says where, one whose checks pass leaves nothing.  Fixture scripts, no kverify: under a second.
. "$(dirname "$0")/lib.sh"

plan 10
# fixture NAME: a script of tests/ that sources lib.sh, its body on stdin
fixture() {
	mkdir -p "$TMP/t"
	ln -sf "$REPO/tests/lib.sh" "$TMP/t/lib.sh"
	{ echo '#!/bin/bash'; echo '. "$(dirname "$0")/lib.sh"'; cat; } > "$TMP/t/$1"
}

fixture good.t <<'EOF_T'
plan 5
test_expect_success 'rc, out and p are the body'\''s' '
	rc=3 && out=o && p=x && [ "$rc$out$p" = 3ox ]
'
test_expect_success 'and stay set for the next check' '
	[ "$rc$out$p" = 3ox ]
'
test_expect_success 'a body from a here-document' - <<\EOT
	v='single quotes' &&
	for w in a b; do
		[ -n "$w" ] || return 1
	done &&
	if [ "$v" = "single quotes" ]; then
		true
	fi &&
	{ false; st=$?; } &&
	[ $st = 1 ] &&
	cat <<-\X
	a here-document's lines
	need no &&
	X
EOT
test_expect_success 'return 1 ends the body, and the check fails' '
	for w in a b; do
		[ $w = a ] || return 1
	done
'
test_lazy_prereq NEVER 'false'
test_expect_success NEVER 'skipped' - <<\EOT
	false
EOT
done_testing
EOF_T
fixture broken.t <<'EOF_T'
plan 2
test_expect_success 'a broken chain' '
	echo first
	touch "$TMP/../ran"
	true
'
test_expect_success 'a whole one' '
	true && true
'
done_testing
EOF_T
fixture helpers.t <<'EOF_T'
plan 9
test_expect_success 'test_expect_code: the code wanted' 'test_expect_code 3 sh -c "exit 3"'
test_expect_success 'test_expect_code: another code' 'test_expect_code 3 sh -c "exit 1"'
test_expect_success 'test_must_fail: a failure' 'test_must_fail false'
test_expect_success 'test_must_fail: a success' 'test_must_fail true'
test_expect_success 'test_must_fail: a command not found' 'test_must_fail no-such-command-here'
test_expect_success 'test_cmp: a difference' '
	echo a > "$TMP/a" && echo b > "$TMP/b" && test_cmp "$TMP/a" "$TMP/b"
'
test_expect_success 'test_when_finished runs after a failed body' '
	test_when_finished "touch \"\$TMP/cleaned\"" &&
	false
'
test_expect_success 'a failing test_when_finished fails a check that passed' '
	test_when_finished false && true
'
test_expect_success 'the cleanup of the failed body ran' '[ -e "$TMP/cleaned" ]'
done_testing
EOF_T
fixture pass.t <<'EOF_T'
plan 1
test_expect_success 'passes' 'touch "$TMP/mine"'
done_testing
EOF_T

test_expect_success 'the good fixture: locals free, a body from stdin, return 1 fails its check, a skip' '
	{ env -u KVERIFY_TEST_CHAIN_LINT bash "$TMP/t/good.t" > "$TMP/good.out" 2>&1; st=$?; } &&
	cat "$TMP/good.out" && [ $st = 1 ] &&
	[ "$(grep -c "^ok [0-9]" "$TMP/good.out")" = 4 ] &&
	grep -qx "not ok 4 - return 1 ends the body, and the check fails" "$TMP/good.out" &&
	grep -qx "ok 5 - skipped # SKIP missing NEVER" "$TMP/good.out"
'
test_expect_success 'no join the chain-lint accepts is reported' '
	! grep "broken &&-chain" "$TMP/good.out"
'
test_expect_success 'by default a broken chain fails the check, exit 117, without running it' '
	{ env -u KVERIFY_TEST_CHAIN_LINT bash "$TMP/t/broken.t" > "$TMP/strict.out" 2>&1; st=$?; } &&
	cat "$TMP/strict.out" && [ $st = 1 ] &&
	grep -qx "not ok 1 - a broken chain" "$TMP/strict.out" &&
	grep -q "^# commands (exit 117):" "$TMP/strict.out" &&
	grep -q "^# broken &&-chain: echo first$" "$TMP/strict.out" &&
	grep -qx "ok 2 - a whole one" "$TMP/strict.out"
'
test_expect_success 'the body did not run' '
	[ ! -e "$TMP/ran" ]
'
test_expect_success 'KVERIFY_TEST_CHAIN_LINT=0: a warning line, and the check runs' '
	KVERIFY_TEST_CHAIN_LINT=0 bash "$TMP/t/broken.t" > "$TMP/warn.out" 2>&1 &&
	cat "$TMP/warn.out" &&
	grep -qx "# a broken chain: broken &&-chain: echo first" "$TMP/warn.out" &&
	grep -qx "ok 1 - a broken chain" "$TMP/warn.out"
'
test_expect_success 'a script with a failed check keeps its $TMP and says where' '
	kept=$(sed -n "s/^# good.t: 1 failed (exit 1); kept \\(.*\\)$/\\1/p" "$TMP/good.out") &&
	echo "kept: $kept" &&
	case $kept in "$TMP"/kverify-test.*) ;; *) false ;; esac &&
	[ -d "$kept" ] && [ -e "$kept/expect.4" ]
'
test_expect_success 'a script whose checks pass leaves no directory behind' '
	mkdir "$TMP/passtmp" &&
	TMPDIR=$TMP/passtmp bash "$TMP/t/pass.t" > "$TMP/pass.out" 2>&1 &&
	cat "$TMP/pass.out" && grep -qx "ok 1 - passes" "$TMP/pass.out" &&
	! grep -q kept "$TMP/pass.out" &&
	[ -z "$(ls -A "$TMP/passtmp")" ]
'
test_expect_success 'test_expect_code, test_must_fail, test_cmp and test_when_finished pass and fail as git'"'"'s do' '
	{ bash "$TMP/t/helpers.t" > "$TMP/helpers.out" 2>&1; st=$?; } &&
	cat "$TMP/helpers.out" && [ $st = 1 ] &&
	[ "$(grep "^ok [0-9]" "$TMP/helpers.out" | cut -d" " -f2 | tr "\n" " ")" = "1 3 9 " ] &&
	[ "$(grep "^not ok [0-9]" "$TMP/helpers.out" | cut -d" " -f3 | tr "\n" " ")" = "2 4 5 6 7 8 " ] &&
	grep -q "test_expect_code: want exit 3, got 1" "$TMP/helpers.out" &&
	grep -q "^# -a$" "$TMP/helpers.out"
'
test_expect_success 'the chain-lint names the first broken line, past joined ones' '
	[ "$(_chain_lint "$(printf "a &&\nb |\nc ||\nd\ne\n")")" = "broken &&-chain: d" ]
'
test_expect_success 'a job put in the background joins the line that reads its pid, and only that' '
	[ -z "$(_chain_lint "$(printf "{ sleep 1 &\n  pid=\$!; } &&\nwait \$pid\n")")" ] &&
	[ "$(_chain_lint "$(printf "sleep 1 &\nwait\n")")" = "broken &&-chain: sleep 1 &" ] &&
	[ "$(_chain_lint "$(printf "true &&\nsleep 1\npid=\$!\n")")" = "broken &&-chain: sleep 1" ]
'
done_testing
