#!/bin/bash
# --sources: several caches share one store of what is fetched (sources,
# Debian's packages, the apt state, toolchains), as the lanes of `make
# check-all` do.  Two caches fetch one source at once: it is extracted
# once, into the store, and each cache links its own tree to it and
# applies the series there.  The store is checked against its manifest
# on every use, from whichever cache; a source fetched again makes every
# cache's tree anew, a check that finds it as it was makes none; without
# --sources a cache keeps its own.  A tar: fixture, its extraction slowed so the two fetches meet.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

plan 8
copy=$TMP/repo
repo_copy "$copy"
S=$TMP/store
pmu_fixture_series "$copy/backports/fix" 0001-fix.patch
pmu_fixture_tree "$TMP/t/linux"
tar -C "$TMP/t" -cf "$TMP/linux.tar" linux
printf 'x tar:%s backports/fix\n' "$TMP/linux.tar" > "$copy/kernels.list"

# tar, counting its extractions of the fixture, each one slowed as a
# large source's is.
mkdir -p "$TMP/bin"
cat > "$TMP/bin/tar" <<SHIM
#!/bin/sh
case "\$*" in *linux.tar*) echo x >> "$TMP/extractions" ;; esac
/bin/tar "\$@"
rc=\$?
case "\$*" in *linux.tar*) sleep 3 ;; esac
exit \$rc
SHIM
chmod +x "$TMP/bin/tar"

verify() {	# verify CACHE [--sources DIR]: fetch, tree and apply of x
	local c=$1
	shift
	(cd "$copy" && PATH=$TMP/bin:$PATH build/kverify --cache "$c" "$@" \
		--results "$c.results" verify \
		--skip sim,checkpatch,cocci,config,build,selftests,boot x)
}
reason() { json "$1.results/x/report.json" "[s['reason'] for s in r['steps'] if s['name']=='$2'][0]"; }

verify "$TMP/a" --sources "$S" > "$TMP/a.out" 2>&1 &
a=$!
verify "$TMP/b" --sources "$S" > "$TMP/b.out" 2>&1
brc=$?
wait $a
arc=$?
test_expect_success "two caches fetch one source at once into their store: both pass, one extraction (exit $arc, $brc)" '
	tail -n 5 "$TMP/a.out" "$TMP/b.out" &&
	[ $arc = 0 ] && [ $brc = 0 ] && [ "$(wc -l < "$TMP/extractions")" = 1 ] &&
	reason "$TMP/a" fetch && reason "$TMP/b" fetch
'
src=$(echo "$S"/src/tar-*/)
src=${src%/}
test_expect_success 'the source and its manifest are in the store, none in either cache' '
	[ -f "$src.manifest" ] && [ -f "$src/lib/data.c" ] &&
	[ ! -e "$TMP/a/src" ] && [ ! -e "$TMP/b/src" ]
'
test_expect_success "each cache has its own tree, linked to the store's source, the series applied" '
	for c in a b; do
		[ "$(stat -c %i "$TMP/$c/trees/x/lib/data.c")" = "$(stat -c %i "$src/lib/data.c")" ] &&
		grep -qx "int tolerance;" "$TMP/$c/trees/x/arch/x86/kvm/pmu.c" || return 1
	done &&
	[ "$(cat "$src/arch/x86/kvm/pmu.c")" = "int pmu;" ]
'

truncate -s 100 "$src/lib/data.c"
verify "$TMP/b" --sources "$S" > "$TMP/b.out" 2>&1
brc=$?
test_expect_success "a file of the store changed: the next run from either cache is an ERROR naming it, and fetches again (exit $brc)" '
	tail -n 5 "$TMP/b.out" &&
	[ $brc = 0 ] && reason "$TMP/b" fetch | grep -q "^ERROR: .*lib/data.c.*; fetched again: fetched and unpacked tar-" &&
	cmp -s "$src/lib/data.c" "$TMP/t/linux/lib/data.c" && [ "$(wc -l < "$TMP/extractions")" = 2 ]
'
test_expect_success "the other cache's tree is linked again, not reused" '
	verify "$TMP/a" --sources "$S" > "$TMP/a.out" 2>&1 &&
	! reason "$TMP/a" tree | grep -q "^reused" &&
	cmp -s "$TMP/a/trees/x/lib/data.c" "$TMP/t/linux/lib/data.c"
'
test_expect_success 'a full check of the store from one cache (VERIFY_CACHE=1, which writes the manifest anew) leaves the other cache'"'"'s tree reused' '
	(export KVERIFY_VERIFY_CACHE=1 && verify "$TMP/b" --sources "$S") > "$TMP/b.out" 2>&1 &&
	verify "$TMP/a" --sources "$S" > "$TMP/a.out" 2>&1 &&
	reason "$TMP/a" tree | grep -q "^reused"
'
test_expect_success 'KVERIFY_SOURCES names the store as --sources does' '
	(export KVERIFY_SOURCES=$S && verify "$TMP/c") > "$TMP/c.out" 2>&1 &&
	[ ! -e "$TMP/c/src" ] && reason "$TMP/c" fetch | grep -q "^cached tar-" &&
	[ "$(wc -l < "$TMP/extractions")" = 2 ]
'
test_expect_success 'without either, a cache fetches into its own src/' '
	(unset KVERIFY_SOURCES && verify "$TMP/d") > "$TMP/d.out" 2>&1 &&
	[ -f "$(echo "$TMP"/d/src/tar-*/lib/data.c)" ] && [ "$(wc -l < "$TMP/extractions")" = 3 ]
'
done_testing
