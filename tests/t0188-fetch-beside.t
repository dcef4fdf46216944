#!/bin/bash
# A deb: source fetched cold for BOOT=auto: while xz and tar unpack the
# source, the Debian packages the config step unpacks (image, headers,
# kbuild) are fetched beside them, in a process of their own.  Their
# tools' lines go to the fetch step's log, both reasons say so, the config
# step downloads nothing, and a second run fetches nothing at all.  With
# SKIP=config only the source is fetched.  Each run has a sources store of
# its own, empty at first.  Cost: two downloads of the 6.12 source (~150
# MB each), their xz and tar, and Debian's packages once: 71 CPU-s (290 s
# on 2 cores with a load of 10 to 20 beside it).
# tier: kernels
. "$(dirname "$0")/lib.sh"

T=${KVERIFY_DISTRO_BOOT_TARGET:-6.12}
QUICK=sim,checkpatch,cocci,build,kabi,selftests,boot
plan 6
R=results/$T/report.json
LOG=results/$T/logs
reason() { json $R "[s['reason'] for s in r['steps'] if s['name'] == '$1'][0]" 2>/dev/null; }
store=$TMP/sources
verify() {
	KVERIFY_SOURCES=$store make --no-print-directory verify KERNEL=$T \
		BOOT=auto "$@" > "$TMP/out" 2>&1
}

test_expect_success 'SKIP=config: a cold fetch unpacks the source and fetches no package' '
	verify SKIP=$QUICK,config
	rc=$? && echo "exit $rc" && tail -n 14 "$TMP/out" && [ $rc = 0 ] &&
	echo "fetch: $(reason fetch)" &&
	reason fetch | grep -q "^fetched and unpacked deb-linux-source-$T-[^;]*$" &&
	! grep -q "^== " $LOG/00-fetch.log &&
	[ -z "$(ls -A "$store/debian" 2>/dev/null)" ]
'
test_expect_success 'a cold fetch for BOOT=auto: the packages come beside the source' '
	rm -rf "$store/src" && verify SKIP=$QUICK
	rc=$? && echo "exit $rc" && tail -n 14 "$TMP/out" && [ $rc = 0 ] &&
	echo "fetch: $(reason fetch)" &&
	reason fetch | grep -q "^fetched and unpacked deb-linux-source-$T-.*; the kernel.s packages fetched beside it$"
'
test_expect_success "the fetch log has the packages' tools after the source's" - <<\EOT
	sed -n "/^== the kernel's packages, fetched beside the source ==$/,\$p" $LOG/00-fetch.log > "$TMP/pk" &&
	head -n 3 "$TMP/pk" | cut -c1-160 &&
	grep -q "^\$ .*apt-get .* download .*linux-image-" "$TMP/pk" &&
	grep -q "^\$ .*dpkg-deb -x .*linux-headers-" "$TMP/pk" &&
	sed "/^== the kernel/q" $LOG/00-fetch.log | grep -q "^\$ xz -dc -T0$"
EOT
test_expect_success 'the config step downloads nothing, and says where its packages came from' '
	echo "config: $(reason config)" &&
	reason config | grep -q "(fetched beside the source)" &&
	! grep -q "apt-get .* download" $LOG/06-config.log
'
test_expect_success 'the packages are in the store once, nothing half-made beside them' '
	ls -a "$store/debian" &&
	[ "$(ls "$store/debian" | grep -c "_")" = 1 ] &&
	[ -z "$(ls -A "$store/debian" | grep "^\.tmp-")" ] &&
	[ -z "$(ls "$LOG" | grep -v "\.log$")" ]
'
test_expect_success 'a second run fetches nothing' '
	verify SKIP=$QUICK
	rc=$? && echo "exit $rc" && [ $rc = 0 ] &&
	echo "fetch: $(reason fetch); config: $(reason config | cut -c1-120)" &&
	reason fetch | grep -q "^cached deb-linux-source-$T-[^;]*$" &&
	reason config | grep -q "(cached)" &&
	! grep -q "^== " $LOG/00-fetch.log
'
done_testing
