#!/bin/bash
# The latency job end to end under TCG: tools/guest/latency-initrd builds
# the guest's initramfs, tools/guest/latency-host boots it (Debian's 6.12
# kernel from the test cache as the guest: it has function_graph) and
# drives two passes, setting the tolerance before each (here a plain file
# stands in for the host's kvm parameter, which this machine's kvm lacks),
# and kverify latency makes the table, with its TCG warning.  A parameter
# that does not keep the value written stops the run.  Cost: two TCG
# boots of Debian's kernel, 1 vCPU, 2 s a pass: 52 s in all here.
# tier: kernels
. "$(dirname "$0")/lib.sh"

N=5
plan $N
K=$(ls "$SOURCES"/debian/6.12*/boot/vmlinuz-* 2> /dev/null | head -n 1)
why=
[ -n "$K" ] || why="no Debian 6.12 vmlinuz in $SOURCES/debian (t0185's BOOT=distro boot fetches it)"
command -v qemu-system-x86_64 > /dev/null || why="no qemu-system-x86_64"
[ -n "$why" ] || tools/guest/latency-initrd "$TMP/guest.cpio" > "$TMP/initrd.out" 2>&1 ||
	why="latency-initrd failed: $(tail -n 1 "$TMP/initrd.out")"
if [ -n "$why" ]; then
	for i in $(seq $N); do skip "latency job" "$why"; done
	exit 0
fi

host() {	# host PARAM OUTDIR: two passes, tolerances 0 then 1000
	ACCEL=tcg VCPUS=1 MEM=1024 PASS_SECONDS=2 RUNS=1 TOLERANCES="0 1000" \
		PARAM=$1 timeout 600 tools/guest/latency-host "$K" "$TMP/guest.cpio" "$2"
}

echo 7 > "$TMP/param"
test_expect_success 'latency-host drives both passes and files their traces' '
	host "$TMP/param" "$TMP/out" 2> "$TMP/host.err"; rc=$?; cat "$TMP/host.err"
	[ $rc = 0 ] && grep -qx "latency-host: 2 of 2 passes traced in $TMP/out" "$TMP/host.err" &&
	test -s "$TMP/out/pass-1.trace" && test -s "$TMP/out/pass-2.trace"
'
test_expect_success 'the tolerance was set on the host before each pass, in order' '
	grep -x "latency-host: pass [12] of 2: tolerance [0-9]*" "$TMP/host.err" > "$TMP/passes" &&
	printf "latency-host: pass 1 of 2: tolerance 0\nlatency-host: pass 2 of 2: tolerance 1000\n" | diff - "$TMP/passes" &&
	[ "$(cat "$TMP/param")" = 1000 ] &&
	head -n 1 "$TMP/out/pass-1.trace" | grep -q "^# kverify-latency tolerance=0 accel=tcg machine=host " &&
	head -n 1 "$TMP/out/pass-2.trace" | grep -q "^# kverify-latency tolerance=1000 accel=tcg " &&
	grep -q "^kverify-latency: ready 2$" "$TMP/out/console.log" &&
	sed -n 2p "$TMP/out/pass-1.trace" | grep -qx "# tracer: function_graph"
'
test_expect_success 'kverify latency: a row a pass, ticks counted, the TCG warning' '
	build/kverify latency --results "$TMP/res" "$TMP"/out/pass-*.trace > "$TMP/table" && cat "$TMP/table" &&
	cmp "$TMP/table" "$TMP/res/latency/table.txt" &&
	grep -q "^  0 run 1  *[0-9.]* .* [1-9][0-9]*$" "$TMP/table" &&
	grep -q "^  1000 run 1  *[0-9.]* .* [1-9][0-9]*$" "$TMP/table" &&
	[ $(grep -c "^!!! TCG: THESE NUMBERS MEAN NOTHING" "$TMP/table") = 2 ]
'
test_expect_success 'the guest says it has no PMU under TCG' '
	grep -q "^latency-host: pmu-toggle: no PMU here" "$TMP/host.err"
'
test_expect_success 'a parameter that does not keep the value stops the run: exit 1, saying so' '
	host /dev/null "$TMP/out2" 2> "$TMP/host2.err"; rc=$?; cat "$TMP/host2.err"
	[ $rc = 1 ] && grep -q "latency-host: /dev/null reads '"''"' after writing 0" "$TMP/host2.err" &&
	! test -e "$TMP/out2/pass-1.trace"
'
done_testing
