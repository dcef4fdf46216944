#!/bin/bash
# A failure that is the machine's, not the patch's, is an ERROR (exit 3):
# Debian's compiler of the kernel (its headers' .kernelvariables) missing
# here is reported by the config step as ERROR, whatever its reason says,
# and so is a download of Debian's packages that fails (apt-get through a
# proxy that refuses); with the compiler there, the same run passes.  The
# packages are the ones BOOT=distro fetches for 6.12 (t0185 fetches them
# too); the runs read a copy of the tests' cache made of hard links, in
# which .kernelvariables names a gcc that is not installed.  Warm: about
# 7 CPU-s (under a minute of wall time); on an empty cache the 6.12 source
# and Debian's image and headers packages are fetched first.
# tier: kernels
. "$(dirname "$0")/lib.sh"

T=6.12
NOCONFIG=tree,apply,sim,checkpatch,cocci,build,kabi,selftests,boot
plan 4

# The source and Debian's packages, in the tests' cache.
"$KVERIFY" --results "$TMP/prereq" --boot distro verify --skip $NOCONFIG $T \
	> "$TMP/prereq.out" 2>&1 || diag < "$TMP/prereq.out"
# The config step's reason names the kernel: "Debian's 6.12.118+deb12-amd64: ..."
abi=$(json "$TMP/prereq/$T/report.json" \
	"[s['reason'] for s in r['steps'] if s['name'] == 'config'][0]" |
	sed -n "s/^Debian's \([^ :]*-amd64\): .*/\1/p")

# A private cache: hard links to the source, the apt lists and the
# unpacked packages (never written through: sed -i writes a new file).
C=$TMP/cache
mkdir -p "$C/src" "$C/debian" &&
	cp -al "$SOURCES/apt" "$C/apt" &&
	cp -al "$SOURCES/src/deb-linux-source-$T"-* "$C/src/" &&
	cp -al "$SOURCES/debian/${abi%-amd64}"_* "$C/debian/"
run() {
	KVERIFY_CACHE=$C KVERIFY_SOURCES=$C KVERIFY_TEST_APT_MAX_AGE=1000000000 \
		"$KVERIFY" --results "$TMP/r" --boot distro verify \
		--skip $NOCONFIG $T > "$TMP/out" 2>&1
}
R=$TMP/r/$T/report.json
reason() { json "$R" "[s['reason'] for s in r['steps'] if s['name'] == 'config'][0]"; }

test_expect_success "the control: Debian's compiler here, config passes" '
	run && [ "$(step_status "$R" config)" = PASS ]
'
vars=/usr/src/linux-headers-$abi/.kernelvariables
test_expect_success "a copy of $abi's .kernelvariables that names gcc-99" '
	sed -i "s/^\(CC = .*gcc\)-[0-9]*$/\1-99/" "$C/debian/${abi%-amd64}"_*$vars &&
	grep -q "^CC = .*gcc-99$" "$C/debian/${abi%-amd64}"_*$vars &&
	! grep -q "gcc-99" "$SOURCES/debian/${abi%-amd64}"_*$vars
'
test_expect_success "Debian's compiler missing: config is an ERROR, not a FAIL, and the run exits 3" '
	run; rc=$? &&
	[ $rc = 3 ] && [ "$(step_status "$R" config)" = ERROR ] &&
	reason | grep -q "with x86_64-linux-gnu-gcc-99 .*which is not installed here"
'

# The packages not unpacked yet, and apt-get cannot reach the mirror.
rm -rf "$C/debian"
test_expect_success "Debian's packages cannot be downloaded: config is an ERROR, the run exits 3" '
	http_proxy=http://127.0.0.1:9 run; rc=$? &&
	[ $rc = 3 ] && [ "$(step_status "$R" config)" = ERROR ] &&
	reason | grep -q "^apt-get exited with status" &&
	grep -q "Failed to fetch" "$TMP/r/$T/logs/"*-config.log
'
done_testing
