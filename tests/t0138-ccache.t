#!/bin/bash
# ccache is in front of gcc by default where it is installed, with a store
# for each source and series in the cache (CCACHE_DIR=<cache>/ccache/<hash
# of the source and the series' patches>) and the compiler known by its
# bytes: a second cold build, after the tree and the build directory are
# wiped but not the store, hits; the same build with another gcc (a
# wrapper: other bytes) misses (no more hits than the first cold build,
# whose few come from identical compilations within it: its store was
# new); CCACHE=0 builds without it.  The tree's make writes its store (in
# the sandbox): another series, whose top Makefile leaves a file in
# $CCACHE_DIR, gets a store of its own, and its file is in no other
# store; a kverify that keeps one store for every series (a mutant) fails
# that check.  An older cache's one store, which the sandbox owned, is
# made anew; the cache keeps the eight stores used last, and one that a
# run holds.
# Cost: three builds of arch/x86/kvm/ objects (--build objects, our
# allnoconfig + configs/kvm-guest.config; the first and third cold) in a
# cache of the test's own, from the test cache's 6.12 source, config-only
# runs, and a build of the mutant kverify.
# tier: kernels
# lane: 2
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

T=${KVERIFY_CCACHE_TARGET:-6.12}
plan 10
if ! command -v ccache > /dev/null; then
	for i in $(seq 10); do skip "ccache" "ccache is not installed"; done
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
	(cd "$copy" && ./build/kverify --list ${LIST:-cc.list} --cache "$C" \
		--build objects verify \
		--skip sim,checkpatch,cocci,kabi,selftests,boot${1:+,$1} cc) \
		> "$TMP/out" 2>&1 || { tail -n 20 "$TMP/out"; false; }
}
# the store a step's log names (its CCACHE_DIR)
store_of() { sed -n 's/^\$ .*CCACHE_DIR=\([^ ]*\) .*/\1/p' "$1" | head -n 1; }
hits() { json $R "r['ccache']['hits']"; }
misses() { json $R "r['ccache']['misses']"; }
reason() { json $R "[s['reason'] for s in r['steps'] if s['name'] == '$1'][0]"; }

# An older cache: one store, ccache/ itself, which the sandbox wrote.
mkdir -p "$C/ccache/0/1" && echo old > "$C/ccache/0/1/x.o" && touch "$C/ccache/stats"
[ "$(id -u)" = 0 ] && chown -R 65534:65534 "$C/ccache"
test_expect_success "the first build compiles through ccache, into the store of its source and series" - <<\EOT
	CCACHE_LOGFILE=$C/build/cc/ccache.log KVERIFY_CCACHE= run && [ "$(step_status $R build)" = PASS ] &&
	reason build | grep "objects built; ccache [0-9]* hits, [1-9][0-9]* misses" &&
	h1=$(hits) && m1=$(misses) && [ "$h1" -lt "$m1" ] &&
	A=$(store_of "$copy/results/cc/logs/"*-build.log) && echo "store $A" &&
	echo "$A" | grep -qx "$C/ccache/[0-9a-f]\{16\}" && [ -d "$A" ] &&
	[ "$(store_of "$copy/results/cc/logs/"*-config.log)" = "$A" ]
EOT
# Depend mode: ccache takes the headers from the .d file gcc writes for
# kbuild (-Wp,-MMD) and runs no preprocessor before it compiles; only
# kbuild's probes of options, which write no .d file, are preprocessed.
# Without CCACHE_DEPEND=1 every object of the build was (60 of 60, seen).
test_expect_success "ccache preprocessed no object that has a .d file (depend mode)" - <<\EOT
	awk '/\] Command line: / { mmd[$2] = index($0, " -Wp,-MMD,") > 0 }
	     /\] Running preprocessor$/ && mmd[$2] { bad++ }
	     /\] Running real compiler$/ && mmd[$2] { good++ }
	     END { printf "%d objects with a .d file compiled, %d preprocessed\n", good, bad
		   exit !(good > 0 && bad == 0) }' "$C/build/cc/ccache.log"
EOT
test_expect_success "the older cache's one store is gone, ccache/ is kverify's own" '
	[ ! -e "$C/ccache/0" ] && [ ! -e "$C/ccache/stats" ] &&
	[ -f "$C/ccache/.kverify-stores" ] && [ "$(stat -c %u "$C/ccache")" = "$(id -u)" ]
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
# Another series: the same patches and one more, whose line in the top
# Makefile leaves a file in $CCACHE_DIR when make reads it (the config
# step runs make in a new build directory: no build is needed).
cp -r "$copy/$series" "$copy/series-b"
mkdir -p "$TMP/plant/a" "$TMP/plant/b"
cp "$src/Makefile" "$TMP/plant/a/Makefile" && cp "$src/Makefile" "$TMP/plant/b/Makefile"
printf '\nkverify-test-plant := $(shell touch "$(CCACHE_DIR)/left-by-the-tree")\n' >> "$TMP/plant/b/Makefile"
(cd "$TMP/plant" && diff -u a/Makefile b/Makefile) > "$copy/series-b/9999-plant.patch"
echo 9999-plant.patch >> "$copy/series-b/series"
printf 'cc\tdir:%s\tseries-b\n' "$src" > "$copy/cc-b.list"
# planted_apart LOG_A LOG_B: B's tree left its file in B's store, not in A's
planted_apart() {
	a=$(store_of "$1") && b=$(store_of "$2") && echo "A $a, B $b" &&
	[ -f "$b/left-by-the-tree" ] && [ "$a" != "$b" ] && [ ! -e "$a/left-by-the-tree" ]
}
test_expect_success "another series gets a store of its own: what its tree left there is in no other" '
	rm -rf "$C/build" && LIST=cc-b.list KVERIFY_CCACHE= run build &&
	cp "$copy/results/cc/logs/"*-config.log "$TMP/b.log" &&
	rm -rf "$C/build" && KVERIFY_CCACHE= run build &&
	cp "$copy/results/cc/logs/"*-config.log "$TMP/a.log" &&
	planted_apart "$TMP/a.log" "$TMP/b.log" && [ "$(store_of "$TMP/a.log")" = "$A" ]
'
test_expect_success "a kverify with one store for every series (a mutant) fails that check" - <<\EOT
	mut=$TMP/mutant && repo_copy "$mut" &&
	sed -i 's/(unsigned long long)code_hash(ctx));/0ULL);/' "$mut/tools/core/step.c" &&
	grep -q 'xstrfmt("%016llx", 0ULL);$' "$mut/tools/core/step.c" &&
	make -C "$mut" -s build/kverify > "$TMP/mut.make" 2>&1 &&
	cp -r "$copy/series-b" "$copy/cc-b.list" "$mut/" && printf 'cc\tdir:%s\t%s\n' "$src" "$series" > "$mut/cc.list" &&
	(cd "$mut" && for l in cc-b.list cc.list; do
		rm -rf "$TMP/mutcache/build" &&
		./build/kverify --list $l --cache "$TMP/mutcache" --build objects verify \
			--skip sim,checkpatch,cocci,build,kabi,selftests,boot cc > /dev/null 2>&1 &&
		cp results/cc/logs/*-config.log "$TMP/mut-$l.log" || exit 1
	done) &&
	! planted_apart "$TMP/mut-cc.list.log" "$TMP/mut-cc-b.list.log" &&
	[ -f "$(store_of "$TMP/mut-cc.list.log")/left-by-the-tree" ]
EOT
# Nine older stores, their last use their locks' mtimes; the oldest held
# by a run (a shared flock of its lock, as a run holds its store).
for i in 1 2 3 4 5 6 7 8 9; do
	mkdir -p "$C/ccache/000000000000000$i" && touch "$C/locks/ccache-000000000000000$i" &&
	touch -d "2000-01-0$i" "$C/locks/ccache-000000000000000$i"
done
test_expect_success "the cache keeps its eight stores used last, and one a run holds" - <<\EOT
	flock -s "$C/locks/ccache-0000000000000001" sleep 600 > /dev/null 2>&1 &
	holder=$! && test_when_finished "kill $holder" &&
	rm -rf "$C/build" && KVERIFY_CCACHE= run build && ls "$C/ccache" &&
	[ "$(ls "$C/ccache" | wc -l)" = 9 ] && [ -d "$A" ] &&
	[ -d "$C/ccache/0000000000000009" ] && [ -d "$C/ccache/0000000000000004" ] &&
	[ -d "$C/ccache/0000000000000001" ] &&
	[ ! -e "$C/ccache/0000000000000003" ] && [ ! -e "$C/ccache/0000000000000002" ]
EOT
test_expect_success "CCACHE=0: no ccache in the make command" '
	rm -rf "$C/build" && KVERIFY_CCACHE=0 run build && grep "^\\$.* make " "$copy/results/cc/logs/"*-config.log &&
	! grep "^\\$.* make .*ccache" "$copy/results/cc/logs/"*-config.log
'
test_expect_success "CCACHE=2 is refused" '
	(cd "$copy" && KVERIFY_CCACHE=2 ./build/kverify --list cc.list verify cc) > "$TMP/out" 2>&1
	[ $? = 2 ] && grep "CCACHE=2: CCACHE is 0 or 1" "$TMP/out"
'
done_testing
