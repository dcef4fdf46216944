#!/bin/bash
# ccache is in front of gcc by default where it is installed, with its
# store in the cache (CCACHE_DIR=<cache>/ccache) and the compiler known by
# its bytes: a second cold build, after the tree and the build directory
# are wiped but not the store, hits; the same build with another gcc (a
# wrapper: other bytes) misses (no more hits than the first cold build,
# whose few come from identical compilations within it: its store was
# new); CCACHE=0 builds without it.
# Cost: three builds of arch/x86/kvm/ objects (--build objects, our
# allnoconfig + configs/kvm-guest.config; the first and third cold) in a
# cache of the test's own, from the test cache's 6.12 source: 122 s wall,
# 169 CPU-s here.
# tier: kernels
# lane: 2
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

T=${KVERIFY_CCACHE_TARGET:-6.12}
plan 5
if ! command -v ccache > /dev/null; then
	for i in 1 2 3 4 5; do skip "ccache" "ccache is not installed"; done
	done_testing
fi
copy=$TMP/repo
repo_copy "$copy"
src=$(cached_source $T) || exit 1
series=$(target_series $T)
C=$TMP/cache
printf 'cc\tdir:%s\t%s\n' "$src" "$series" > "$copy/cc.list"
R=$copy/results/cc/report.json

run() {	# run [STEP,...]: the steps to skip besides those
	(cd "$copy" && ./build/kverify --list cc.list --cache "$C" \
		--build objects verify \
		--skip sim,checkpatch,cocci,kabi,selftests,boot${1:+,$1} cc) \
		> "$TMP/out" 2>&1 || { tail -n 20 "$TMP/out"; false; }
}
hits() { json $R "r['ccache']['hits']"; }
misses() { json $R "r['ccache']['misses']"; }
reason() { json $R "[s['reason'] for s in r['steps'] if s['name'] == '$1'][0]"; }

test_expect_success "the first build compiles through ccache, into the cache's store" '
	KVERIFY_CCACHE= run && [ "$(step_status $R build)" = PASS ] &&
	reason build | grep "objects built; ccache [0-9]* hits, [1-9][0-9]* misses" &&
	h1=$(hits) && m1=$(misses) && [ "$h1" -lt "$m1" ] &&
	[ -d "$C/ccache" ] &&
	grep "CCACHE_DIR=$C/ccache" "$copy/results/cc/logs/"*-build.log
'
test_expect_success "the tree and the build wiped, not the store: the second cold build hits" '
	rm -rf "$C/trees" "$C/build" &&
	KVERIFY_CCACHE= run && [ "$(step_status $R build)" = PASS ] &&
	reason build && [ "$(hits)" -gt "$h1" ] && [ "$(misses)" -lt "$(hits)" ]
'
# gcc as another toolchain: the same driver behind a script of other bytes
mkdir -p "$TMP/bin"
printf '#!/bin/sh\n# another toolchain\nexec %s "$@"\n' "$(command -v gcc)" > "$TMP/bin/gcc"
chmod +x "$TMP/bin/gcc"
test_expect_success "another compiler (other bytes): the build misses" '
	rm -rf "$C/trees" "$C/build" &&
	PATH=$TMP/bin:$PATH KVERIFY_CCACHE= run &&
	[ "$(step_status $R build)" = PASS ] &&
	reason build && [ "$(hits)" -le "$h1" ] && [ "$(misses)" -ge "$m1" ]
'
test_expect_success "CCACHE=0: no ccache in the make command" '
	rm -rf "$C/build" && KVERIFY_CCACHE=0 run build && grep "^\\$.* make " "$copy/results/cc/logs/"*-config.log &&
	! grep "^\\$.* make .*ccache" "$copy/results/cc/logs/"*-config.log
'
test_expect_success "CCACHE=2 is refused" '
	(cd "$copy" && KVERIFY_CCACHE=2 ./build/kverify --list cc.list verify cc) > "$TMP/out" 2>&1
	[ $? = 2 ] && grep "CCACHE=2: CCACHE is 0 or 1" "$TMP/out"
'
done_testing
