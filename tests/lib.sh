# SPDX-License-Identifier: GPL-2.0
# TAP helpers for the tests, after git's test-lib: small scripts, one
# plan each, every check an "ok"/"not ok" line with diagnostics.

set -u
REPO=$(cd "$(dirname "$0")/.." && pwd)
KVERIFY=$REPO/build/kverify
# The tests' cache is never the one make verify uses, but tests/default in
# it (tests/lanes names one per lane with KVERIFY_TESTS_CACHE).
case ${XDG_CACHE_HOME-} in /*) ;; *) unset XDG_CACHE_HOME ;; esac	# a relative one is invalid (XDG spec): ignored, as by kverify
export KVERIFY_CACHE=${KVERIFY_TESTS_CACHE:-${KVERIFY_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kverify}/tests/default}
# What the tests fetch (sources, Debian's packages, the apt state,
# toolchains): the store the lanes share (KVERIFY_TESTS_SOURCES), else
# the tests' cache.  A script that makes a cache of its own for what it
# fetches names it as --sources or KVERIFY_SOURCES too.
export KVERIFY_SOURCES=${KVERIFY_TESTS_SOURCES:-$KVERIFY_CACHE}
SOURCES=$KVERIFY_SOURCES
TMP=$(mktemp -d "${TMPDIR:-/tmp}/kverify-test.XXXXXX")
# What the tools a script runs itself leave goes with $TMP.
export TMPDIR=$TMP
# python3 is Debian's, for which `make deps` installs the modules the
# checks import (python3-yaml, python3-jsonschema), whatever the caller's
# PATH puts before /usr/bin.  A pyenv shim there took 0.34 CPU-s a call on
# a quiet 2-core machine, Debian's python3 0.04, and json() is a call for
# each value a check reads of a report: t0167, t0168 and t0178 together
# took 40.9 CPU-s with the shim, 37.1 without.
if [ -x /usr/bin/python3 ]; then
	mkdir "$TMP/python" && ln -s /usr/bin/python3 "$TMP/python/python3" &&
	PATH=$TMP/python:$PATH
fi
# $TMP goes when the script ends, unless a check failed or the script
# ended with a status other than 0: then it stays, with the trash
# directory and each check's output (expect.N), and a line on stderr
# (which prove shows) says where, as git's test_done keeps its trash
# directory.  A script with an EXIT trap of its own ends it with
# "_tmp_end $status" (the status the trap found).
_tmp_end() {
	local rc=${1:-$?}

	if [ "$_failed" = 0 ] && [ $rc = 0 ]; then
		rm -rf "$TMP"
		return
	fi
	echo "# ${0##*/}: $_failed failed (exit $rc); kept $TMP${_trash:+ (trash directory $_trash)}" >&2
}
_failed=0
_trash=
trap _tmp_end EXIT
# Each script works in a trash directory of its own, as in git's t/: a
# clone of the checkout with its files as they are (edits; untracked
# files, known to the clone's git as new; build/ with its times, so make
# finds it up to date), where what the script writes (results/, an edited
# series) reaches neither the checkout nor the next script.  Not for
# lib.sh's own fixtures (t0009), which stand outside any repository.
if [ -e "$REPO/.git" ]; then
	_trash=$TMP/trash
	if ! git clone -q "$REPO" "$_trash" ||
	   ! "$REPO/tests/copy-checkout" "$REPO" "$_trash" "$KVERIFY_CACHE" ||
	   ! git -C "$_trash" add -N . ||
	   { [ -d "$REPO/build" ] && ! cp -a "$REPO/build" "$_trash/"; }; then
		echo "Bail out! cannot make the trash directory $_trash from $REPO"
		exit 1
	fi
	REPO=$_trash
	KVERIFY=$REPO/build/kverify
fi
cd "$REPO" || exit 1
_n=0

plan() { echo "1..$1"; }

# ok STATUS NAME: the TAP line of one check (test_expect_success's, and
# skip's); STATUS 0 is a pass; returns 0 for a pass, 1 for a failure
ok() {
	_n=$((_n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $_n - $2"
	else
		echo "not ok $_n - $2"
		_failed=$((_failed + 1))
		[ -n "${_expect_cmds:-}" ] || _show_check
	fi
	_ok_line=$(_script_line)
	[ "$1" = 0 ]
}

# The line of the test script (not of lib.sh) that is running a helper.
_script_line() {
	local i
	for ((i = 0; i + 1 < ${#BASH_SOURCE[@]}; i++)); do
		if [ "${BASH_SOURCE[$((i + 1))]##*/}" = "${0##*/}" ]; then
			echo "${BASH_LINENO[$i]}"
			return
		fi
	done
	echo 0
}

# A failed check shows the script's lines that made it, from the one after
# the previous check (at most 12), as git's test_expect_success shows its
# commands.
_ok_line=0
_show_check() {
	local line from
	line=$(_script_line)
	[ "$line" -gt 0 ] || return 0
	from=$((_ok_line + 1))
	[ "$from" -le "$line" ] && [ "$from" -gt $((line - 12)) ] ||
		from=$((line > 6 ? line - 5 : 1))
	echo "# ${0##*/}:$from-$line:"
	sed -n "${from},${line}p" "$0" | sed 's/^/#   /'
}

# test_expect_success [PREREQS] TITLE COMMANDS: git's form of a check.
# COMMANDS run in this shell (what they set stays set, for the next
# checks); when they fail, the commands and the end of what they printed
# are shown.  COMMANDS "-" reads them from stdin (a quoted here-document,
# as git's test-lib allows), for commands full of single quotes.  PREREQS
# (NAME,NAME...: test_lazy_prereq) that do not hold skip the check, saying
# which is missing.  The function's own names start with _tes_, so that a
# check may use any other (rc, out, p); $1, $2... inside COMMANDS are not
# the script's (copy them to names first); "return N" ends the body with
# status N.  A body with a broken &&-chain (_chain_lint) fails its check
# (exit 117, as in git's test-lib) without running; with
# KVERIFY_TEST_CHAIN_LINT=0 it is a "# TITLE: broken &&-chain: LINE" line
# before the check runs.
test_expect_success() {
	local _tes_out=$TMP/expect.$((_n + 1)) _tes_rc _tes_p _tes_body _tes_broken
	if [ $# = 3 ]; then
		for _tes_p in ${1//,/ }; do
			if ! test_have_prereq "$_tes_p"; then
				skip "$2" "missing $_tes_p"
				[ "$3" != - ] || cat > /dev/null
				return 0
			fi
		done
		shift
	fi
	_tes_body=$2
	[ "$_tes_body" != - ] || _tes_body=$(cat)
	_tes_broken=$(_chain_lint "$_tes_body")
	if [ -n "$_tes_broken" ] && [ "${KVERIFY_TEST_CHAIN_LINT:-1}" != 0 ]; then
		printf '%s\n' "$_tes_broken" > "$_tes_out"
		_tes_rc=117
	else
		[ -z "$_tes_broken" ] || echo "# $1: $_tes_broken"
		_tes_cleanup=
		_tes_eval "$_tes_body" > "$_tes_out" 2>&1
		_tes_rc=$?
		if [ -n "$_tes_cleanup" ]; then
			_tes_eval "$_tes_cleanup" >> "$_tes_out" 2>&1 ||
				[ $_tes_rc != 0 ] || _tes_rc=1
			_tes_cleanup=
		fi
	fi
	_expect_cmds=$_tes_body
	ok $_tes_rc "$1"
	_expect_cmds=
	[ $_tes_rc = 0 ] && return 0
	echo "# commands (exit $_tes_rc):"
	printf '%s\n' "$_tes_body" | sed '/^[[:space:]]*$/d; s/^/#   /'
	echo "# output (last 30 lines):"
	tail -n 30 "$_tes_out" | diag
}

# _tes_eval COMMANDS: the body, in a function of its own, so that a
# "return 1" in it (git's idiom in a loop) ends the body, not the check.
_tes_eval() { eval "$1"; }

# _chain_lint COMMANDS: "broken &&-chain: LINE" for the first line of
# COMMANDS that is not joined to the next, as git's test-lib checks (in
# its simpler way).  Two lines are joined when the first ends with &&, ||,
# |, a backslash, {, (, then, do, else, in or ;;, or the second begins with
# &&, ||, |, }, ), fi, done, esac, else, elif, then, do or ;;, or the first
# ends with || return N or || exit N, or the status is read right away
# (NAME=$? or NAME=$! on the first line, NAME=$?, [ $? ... or test $? ...
# beginning the second, or NAME=$! after a line that ends with &, a job
# put in the background).  Blank lines and
# comments do not count; a here-document's lines are skipped.
_chain_lint() {
	printf '%s\n' "$1" | awk '
	# The line with its quoted text blanked; sq or dq is set when a quote
	# is still open at its end (a string over several lines).
	function unquote(l,    out, i, c) {
		out = ""
		for (i = 1; i <= length(l); i++) {
			c = substr(l, i, 1)
			if (sq) {
				if (c == "\047")
					sq = 0
				continue
			}
			if (dq) {
				if (c == "\\") {
					i++
					continue
				}
				if (c == "\"")
					dq = 0
				continue
			}
			if (c == "\\" && i < length(l)) {
				i++
				continue
			}
			if (c == "\047")
				sq = 1
			else if (c == "\"")
				dq = 1
			else
				out = out c
		}
		return out
	}
	function joined(a, b) {
		if (a ~ /(&&|\|\||\||\\|\{|\(|[[:space:];]then|^then|[[:space:];]do|^do|[[:space:];]else|^else|[[:space:]]in|;;)$/)
			return 1
		if (a ~ /\|\|[[:space:]]*(return|exit)([[:space:]]+[0-9]+)?$/)
			return 1
		if (b ~ /^(&&|\|\||\||\}|\)|fi|done|esac|else|elif|then|do|;;)([[:space:];&|)]|$)/)
			return 1
		# the status read right away: on the line itself or the next
		if (a ~ /[A-Za-z_][A-Za-z_0-9]*=\$[?!]/)
			return 1
		if (b ~ /^([A-Za-z_][A-Za-z_0-9]*=\$\?|\[ \$\? |test \$\? )/)
			return 1
		# a job put in the background, and its pid read right away
		if (a ~ /(^|[^&])&$/ && b ~ /^[A-Za-z_][A-Za-z_0-9]*=\$!/)
			return 1
		return 0
	}
	{
		if (heredoc != "") {
			t = $0
			sub(/^[\t]*/, "", t)
			if (t == heredoc)
				heredoc = ""
			next
		}
		raw = $0
		if (sq || dq) {	# inside a string: the line only continues it
			unquote(raw)
			next
		}
		sub(/^[[:space:]]+/, "", raw)
		sub(/[[:space:]]+$/, "", raw)
		if (raw == "" || raw ~ /^#/)
			next
		line = unquote(raw)
		sub(/[[:space:]]+$/, "", line)
		if (prev != "" && !joined(prev, line)) {
			print "broken &&-chain: " prevraw
			exit
		}
		prev = line
		prevraw = raw
		if (match(raw, /<<-?[[:space:]]*[\\"\047]?[A-Za-z_]+/) && substr(raw, RSTART, 3) != "<<<") {
			heredoc = substr(raw, RSTART, RLENGTH)
			sub(/^<<-?[[:space:]]*[\\"\047]?/, "", heredoc)
		}
	}
	'
}

skip() { _n=$((_n + 1)); echo "ok $_n - $1 # SKIP $2"; }

# test_lazy_prereq NAME COMMANDS: NAME holds where COMMANDS succeed, run
# (in a subshell, quietly) the first time a check asks for it.
test_lazy_prereq() { eval "_prereq_cmd_$1=\$2"; }
test_have_prereq() {
	local has=_prereq_has_$1 cmd=_prereq_cmd_$1
	if [ -z "${!has-}" ]; then
		if [ -n "${!cmd-}" ] && (eval "${!cmd}") > /dev/null 2>&1; then
			eval "$has=yes"
		else
			eval "$has=no"
		fi
	fi
	[ "${!has}" = yes ]
}
test_lazy_prereq CCACHE 'command -v ccache'

# git's helpers for a check's body.
# test_expect_code N COMMAND...: COMMAND exits N.
test_expect_code() {
	local want=$1 got
	shift
	"$@"
	got=$?
	[ "$got" = "$want" ] && return 0
	echo "test_expect_code: want exit $want, got $got: $*" >&2
	return 1
}
# test_must_fail COMMAND...: COMMAND fails by its own exit status (1-125);
# success, a signal or a command not found is a failure of the check.
test_must_fail() {
	local got
	"$@"
	got=$?
	[ $got != 0 ] && [ $got -le 125 ] && return 0
	echo "test_must_fail: $* exited $got" >&2
	return 1
}
# test_cmp EXPECTED ACTUAL: the same bytes; the diff when not.
test_cmp() { diff -u -- "$1" "$2"; }
# test_when_finished COMMANDS: run after this check's body, pass or fail;
# a failure of COMMANDS fails a check that passed.
test_when_finished() { _tes_cleanup="$*${_tes_cleanup:+; $_tes_cleanup}"; }

diag() { sed 's/^/# /'; }

# json PATH EXPR: evaluate a Python expression over report.json as "r"
json() {
	python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

# step_status REPORT STEP
step_status() {
	json "$1" "[s['status'] for s in r['steps'] if s['name']=='$2'][0]"
}

# wait_for SECONDS COMMAND...: poll COMMAND every 0.1 s until it succeeds
wait_for() {
	local i n=$(($1 * 10))
	shift
	for i in $(seq $n); do
		"$@" && return 0
		sleep 0.1
	done
	return 1
}

# working_in DIR [PATTERN]: the live processes working in DIR or below
# (their cwd; a zombie has none) whose command line matches PATTERN, a
# "PID ARGS" line each
working_in() {
	local p d args
	for p in /proc/[0-9]*; do
		d=$(readlink "$p/cwd" 2> /dev/null) || continue
		case $d in "$1" | "$1"/*) ;; *) continue ;; esac
		args=$(tr '\0' ' ' < "$p/cmdline" 2> /dev/null)
		[[ $args =~ ${2:-.} ]] && echo "${p#/proc/} $args"
	done
	return 0
}

done_testing() { exit $((_failed > 0)); }

# cached_source NAME: the pristine tree of kernels.list's NAME, fetched into
# the cache now if it is not there yet (a prerequisite, not the order in
# which the scripts run).
cached_source() {
	local r=$TMP/prereq-$1
	(cd "$REPO" && KVERIFY_SOURCES=$SOURCES "$KVERIFY" --results "$r" verify \
		--skip tree,apply,sim,checkpatch,cocci,config,build,selftests,boot "$1") \
		> "$r.out" 2>&1 || { diag < "$r.out" >&2; return 1; }
	echo "$SOURCES/src/$(json "$r/$1/report.json" 'r["source_key"]')"
}

# target_series NAME: the series directory kernels.list names for NAME.
target_series() {
	(cd "$REPO" && "$KVERIFY" list) | awk -v t="$1" '$1 == t { print $3 }'
}

# The cocci fixtures: a shape's own files, plus the shared x86.c/x86.h of
# tests/cocci/<uses>/ when the shape names one in its "uses" file.
fixture_files() {	# fixture_files SHAPE input|expected DIR
	mkdir -p "$3"
	cp tests/cocci/$1/$2/* "$3/" 2>/dev/null
	if [ -f tests/cocci/$1/uses ]; then
		cp tests/cocci/"$(cat tests/cocci/$1/uses)"/$2/* "$3/"
	fi
}
