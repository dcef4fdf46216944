#!/bin/bash
# tools/deps, which make runs before every verify and check: the packages
# dpkg has installed pass; any other (unknown, removed with its config
# files kept, half-installed) is named in the apt-get line it prints for a
# user who is not root, exit 2.  A status file of our own (DPKG_ADMINDIR),
# so nothing is installed.
. "$(dirname "$0")/lib.sh"

plan 5
admin=$TMP/dpkg
mkdir -p "$admin/updates" "$admin/info"
stanza() {	# stanza PACKAGE ARCH STATUS
	printf 'Package: %s\nStatus: %s\nArchitecture: %s\nMulti-Arch: same\nVersion: 1.0\nMaintainer: t0151\nDescription: t0151\n\n' \
		"$1" "$3" "$2"
}
{
	stanza alpha amd64 "install ok installed"
	stanza beta amd64 "deinstall ok config-files"
	stanza gamma amd64 "install reinstreq half-installed"
	stanza delta amd64 "install ok installed"
	stanza delta i386 "deinstall ok config-files"
} > "$admin/status"
# A dpkg-query on PATH that counts its runs (in a file the user who is not
# root can write), then runs Debian's.
mkdir -p "$TMP/bin" "$TMP/log" && chmod 1777 "$TMP/log"
printf '#!/bin/sh\necho run >> "%s"\nexec %s "$@"\n' "$TMP/log/queries" \
	"$(command -v dpkg-query)" > "$TMP/bin/dpkg-query"
chmod +x "$TMP/bin/dpkg-query"
# deps PACKAGE...: tools/deps as a user who is not root, which prints the
# apt-get line instead of running it.  A copy in $TMP: that user may not
# reach the checkout (a clone under /root).
cp "$REPO/tools/deps" "$TMP/bin/deps" && chmod -R a+rX "$TMP"
deps() {
	rm -f "$TMP/log/queries"
	if [ "$(id -u)" = 0 ]; then
		setpriv --reuid=65534 --regid=65534 --clear-groups -- \
			env PATH="$TMP/bin:$PATH" DPKG_ADMINDIR="$admin" "$TMP/bin/deps" "$@"
	else
		PATH="$TMP/bin:$PATH" DPKG_ADMINDIR="$admin" "$TMP/bin/deps" "$@"
	fi
}

test_expect_success 'installed packages: exit 0, nothing printed' '
	deps alpha delta > "$TMP/out" 2>&1 &&
	[ ! -s "$TMP/out" ]
'
test_expect_success 'the others are named, in the order given, installed ones not: exit 2' '
	deps alpha beta gamma delta epsilon > "$TMP/out" 2>&1
	[ $? = 2 ] &&
	cat "$TMP/out" &&
	grep -qx "  sudo apt-get install -y --no-install-recommends beta gamma epsilon" "$TMP/out"
'
test_expect_success 'a name is matched whole: alph and lpha are not alpha' '
	deps alpha alph lpha > "$TMP/out" 2>&1
	[ $? = 2 ] &&
	grep -qx "  sudo apt-get install -y --no-install-recommends alph lpha" "$TMP/out"
'
test_expect_success 'one dpkg-query for all the packages' '
	{ deps alpha beta gamma delta > /dev/null 2>&1; rc=$?; } &&
	[ $rc = 2 ] && [ "$(wc -l < "$TMP/log/queries")" = 1 ]
'
test_expect_success "this machine's dpkg: make's own packages are installed" '
	rm -f "$TMP/log/queries" &&
	PATH="$TMP/bin:$PATH" "$REPO/tools/deps" make dpkg &&
	[ "$(wc -l < "$TMP/log/queries")" = 1 ]
'
done_testing
