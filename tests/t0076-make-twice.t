#!/bin/bash
# Two makes at once in one checkout (two make am, as in t0082; a make check
# beside a make verify) both succeed: neither reads a half-written object
# or kverify of the other's, nor removes the other's temporary file.  With
# one build/version.c.tmp for both, the second failed about one time in two
# ("mv: cannot stat 'build/version.c.tmp'").  Built at -O0: the race is in
# the Makefile, not the compiler.  And a version given on make's command
# line is data, as the values of README's commands are.
. "$(dirname "$0")/lib.sh"

plan 4
export GIT_AUTHOR_NAME='Test Builder' GIT_AUTHOR_EMAIL=builder@kverify.test
export GIT_COMMITTER_NAME='Test Builder' GIT_COMMITTER_EMAIL=builder@kverify.test
copy=$TMP/repo
mkdir -p "$copy"
git ls-files -z | xargs -0 cp --parents -t "$copy"
cd "$copy" || exit 1
git init -q && git add -A && git commit -q -m 'the first description'

# make_twice ROUND: two `make build/kverify` at once; both must exit 0.
make_twice() {
	make --no-print-directory CFLAGS=-O0 build/kverify > "$TMP/make.$1.a" 2>&1 &
	local a=$!
	make --no-print-directory CFLAGS=-O0 build/kverify > "$TMP/make.$1.b" 2>&1
	local rc_b=$? rc_a=0
	wait $a || rc_a=$?
	[ $rc_a = 0 ] && [ $rc_b = 0 ] && return 0
	echo "round $1: exit $rc_a and $rc_b"
	tail -n 5 "$TMP/make.$1.a" "$TMP/make.$1.b"
	return 1
}

# kverify_is: build/kverify runs and names the copy's commit.
kverify_is() {
	local want
	want="kverify $(git describe --always --dirty)"
	build/kverify --version > "$TMP/version" 2>&1
	if [ "$(cat "$TMP/version")" != "$want" ]; then
		echo "wanted '$want', build/kverify --version printed:"
		cat "$TMP/version"
		return 1
	fi
}

test_expect_success 'from nothing: both compile every object and link kverify, both succeed' '
	make_twice 0 && kverify_is &&
	[ -z "$(find build -name "*.[0-9]*")" ]
'
# rounds N [commit]: N rounds of make_twice, each after a commit with [commit].
rounds() {
	local i
	for i in $(seq 1 "$1"); do
		if [ $# = 2 ]; then
			git commit -q --allow-empty -m "description $i" || return 1
		fi
		make_twice "$i${2:+.commit}" && kverify_is || return 1
	done
}

test_expect_success 'nothing to rebuild, 20 times: both succeed every time' '
	rounds 20
'
test_expect_success 'a commit before each round, 5 times: both relink, and kverify names the new commit' '
	rounds 5 commit
'

# version_given: make build/kverify with a KVERIFY_VERSION that would run
# commands were make to expand it or a shell to parse it (the Makefile put
# it between single quotes in a recipe, expanded); none may run.
version_given() {
	local v
	v=$(cat <<-'EOF'
	v9$(shell touch RAN1)';touch RAN2;'$$(touch RAN3)
	EOF
	)
	v=${v//RAN/$TMP\/ran}
	make --no-print-directory CFLAGS=-O0 "KVERIFY_VERSION=$v" build/kverify > "$TMP/make.v" 2>&1 || {
		tail -n 5 "$TMP/make.v"
		return 1
	}
	ls "$TMP"/ran? 2> /dev/null && return 1
	build/kverify --version > "$TMP/version" 2>&1
	grep -qx 'kverify v9shelltouch[A-Za-z0-9._+-]*ran3' "$TMP/version" || {
		cat "$TMP/version"
		return 1
	}
}

test_expect_success 'KVERIFY_VERSION=... on the command line is data: nothing in it runs, kverify prints what is safe of it' '
	version_given && make --no-print-directory CFLAGS=-O0 build/kverify > /dev/null 2>&1 && kverify_is
'
done_testing
