#!/bin/bash
# Whoever can write the cache chooses what is verified: the cache and each
# directory at its top (src, trees, build, tmp, locks, ccache...) must be
# a real directory of kverify's user, writable by no one else.  One that
# is a symlink, another user's, or group- or world-writable is refused,
# exit 2, naming it and what to do, before anything in it is used.
# (kverify sweep --members: a command that runs tools and needs no source.)
. "$(dirname "$0")/lib.sh"

plan 8
test_lazy_prereq ROOT '[ "$(id -u)" = 0 ]'
C=$TMP/cache
members() {	# members: kverify sweep --members on $C, its exit in $rc
	(cd "$TMP" && KVERIFY_CACHE=$C "$KVERIFY" sweep --members) > "$TMP/out" 2>&1
	rc=$?
}
refused() {	# refused WHAT: exit 2, the message names WHAT
	tail -n 3 "$TMP/out" &&
	[ $rc = 2 ] && grep -q "^kverify: the cache is not kverify's user's alone:" "$TMP/out" &&
	grep -q "$1" "$TMP/out"
}

test_expect_success 'a cache of our own, made anew and used again: exit 0' '
	members && [ $rc = 0 ] && [ -d "$C/tmp" ] &&
	mkdir -p "$C/src" "$C/trees" "$C/locks" &&
	members && [ $rc = 0 ]
'
test_expect_success 'the cache writable by others: exit 2, naming it and chmod go-w' '
	chmod 0777 "$C" && members; chmod 0755 "$C" &&
	refused "$C is writable by others (mode 0777), who could change what is verified: chmod go-w it"
'
test_expect_success 'tmp/ group-writable: exit 2, naming it' '
	chmod 0775 "$C/tmp" && members; chmod 0755 "$C/tmp" &&
	refused "$C/tmp is writable by others (mode 0775)"
'
test_expect_success 'trees/ a symlink to a directory elsewhere: exit 2, nothing written there' '
	mkdir -p "$TMP/elsewhere" && rmdir "$C/trees" && ln -s "$TMP/elsewhere" "$C/trees" &&
	members; rm "$C/trees" &&
	refused "$C/trees is a symlink, where the cache has a directory" &&
	[ -z "$(ls -A "$TMP/elsewhere")" ]
'
test_expect_success 'the cache itself a symlink: exit 2' '
	ln -s "$C" "$TMP/link" &&
	{ (cd "$TMP" && KVERIFY_CACHE=$TMP/link/ "$KVERIFY" sweep --members) > "$TMP/out" 2>&1; rc=$?; } &&
	refused "$TMP/link is a symlink"
'
test_expect_success ROOT 'src/ owned by another user: exit 2, naming the owner and chown' '
	chown 1 "$C/src" && members; chown 0 "$C/src" &&
	refused "$C/src is owned by uid 1, not by kverify.s user (uid 0), and its owner could change what is verified: chown -R 0 it"
'
test_expect_success ROOT 'ccache/ is the sandbox user'"'"'s (its builds write it): exit 0' '
	mkdir -p "$C/ccache" && chown 65534:65534 "$C/ccache" &&
	members && [ $rc = 0 ]
'
test_expect_success ROOT 'but locks/ owned by the sandbox user is refused' '
	chown 65534 "$C/locks" && members; chown 0 "$C/locks" &&
	refused "$C/locks is owned by uid 65534"
'
done_testing
