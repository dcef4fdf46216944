#!/bin/bash
# The boot step keeps its PASS under a hash of what it boots (memo.h): the
# initramfs's list and the bytes of every file in it (the runner, the
# tests), the kernel image, QEMU's executable and its command line, the
# probe's answer, --require.  QEMU here is a fake that prints a guest's
# console with a SKIP and counts its boots.  The same inputs again: "up to
# date", no boot, the SKIP still a SKIP in the report; another QEMU, an
# edited runner, --require pmu, FORCE=1: it boots again; a FAIL is not
# kept; a kept console edited by hand is not believed; with --results
# outside the checkout, the initramfs is made from there.
# Cost: 11 runs of the build and selftests steps on a built tree (make
# finds nothing to do: lane 1 built it in t0120), no real boot: 15 s here
# (31 s with KVERIFY_MEMO_BOOT=distro, which runs it on a cache where
# Debian's kernel is what is built).
# tier: kernels
# lane: 1
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

T=${KVERIFY_GUEST_TARGET:-6.12}
BOOT=${KVERIFY_MEMO_BOOT:-own}
plan 10
copy=$TMP/repo
repo_copy "$copy"
R=$copy/results/$T/report.json
memo=$KVERIFY_CACHE/memo/$T.boot
# QEMU runs in the sandbox, which sees the repository, not $TMP: the fake
# lives in the copy, and says each call on its stdout, the console.
fake=$copy/fakebin
rm -f "$memo"
mkdir -p "$fake"
cat > "$fake/console" <<'EOF2'
kverify-guest: booted 6.12.0-fake
KTAP version 1
1..3
ok 1 param:emulated_counter_reprogram_tolerance
ok 2 cpuid_test
ok 3 pmu_counters_test # SKIP no PMU in this guest
KVERIFY-DONE
EOF2
cat > "$fake/qemu-system-x86_64" <<EOF2
#!/bin/sh
echo "fake-qemu: \$*"
case "\$*" in *kverify.probe=1*) exit 0 ;; esac
# The runner's port (ttyS1): QEMU's "-chardev file,id=runner,path=FILE".
for a in "\$@"; do
	case "\$a" in file,id=runner,path=*) cat "$fake/console" > "\${a#file,id=runner,path=}" ;; esac
done
cat "$fake/console"
EOF2
chmod +x "$fake/qemu-system-x86_64"
# The probe's answer is this host's: back as it was at the end.
probe=$KVERIFY_CACHE/accel-probe
[ -e "$probe" ] && cp -p "$probe" "$TMP/accel-probe"
restore_probe() {
	if [ -e "$TMP/accel-probe" ]; then cp -p "$TMP/accel-probe" "$probe"; else rm -f "$probe"; fi
}
trap '_rc=$?; restore_probe; _tmp_end $_rc' EXIT

verify() {
	rm -f "$copy/results/$T/console.log"
	(cd "$copy" && PATH=$fake:$PATH ./build/kverify --boot $BOOT verify \
		--skip sim,checkpatch,cocci "$@" $T) > "$TMP/out" 2>&1
}
# the guest boots QEMU made (not the probe's, not a --version)
boots() { grep -s "^fake-qemu: .*-kernel " "$copy/results/$T/console.log" | grep -vc kverify.probe=1; }
reason() { json $R "[s['reason'] for s in r['steps'] if s['name'] == 'boot'][0]"; }
booted() {	# the guest booted once, with the tests as the console says
	[ "$(step_status $R boot)" = PASS ] && ! reason | grep -q "^up to date" &&
		[ "$(boots)" = 1 ] && skip_kept
}
skip_kept() {
	[ "$(json $R "[t['status'] for t in r['tests'] if t['name'].startswith('pmu_counters_test')][0]")" = SKIP ] &&
		reason | grep -q "2 passed, 0 failed, 1 skipped"
}
reused() {	# the kept PASS, QEMU not run, the SKIP kept a SKIP
	[ "$(step_status $R boot)" = PASS ] &&
		reason | grep "^up to date: inputs unchanged since the PASS of " &&
		[ "$(boots)" = 0 ] && skip_kept &&
		grep -q "^ok 3 pmu_counters_test # SKIP" "$copy/results/$T/runner.log" &&
		[ "$(json $R "r['kernel_release']")" = 6.12.0-fake ]
}

test_expect_success "the first run boots (the fake QEMU)" '
	verify && booted && [ -s "$memo" ]
'
test_expect_success "the same inputs again: up to date, no boot, the SKIP still a SKIP" '
	verify && reused
'
test_expect_success "another QEMU executable: it boots" '
	echo "# another build" >> "$fake/qemu-system-x86_64" &&
	verify && booted && verify && reused
'
test_expect_success "the guest runner edited: it boots" '
	echo "# an edit" >> "$copy/tools/guest/init" &&
	verify && booted
'
# The fake's console prints the SKIP whatever the guest's command line:
# the boot step makes it the FAIL a runner given kverify.require=pmu
# prints, with the skip's reason, for the report and its readers.
test_expect_success "--require pmu: it boots with kverify.require=pmu, the SKIP FAILs with its reason, nothing kept" '
	{ verify --require pmu; [ $? = 1 ]; } &&
	[ "$(step_status $R boot)" = FAIL ] && [ ! -e "$memo" ] &&
	grep "^fake-qemu: .*-kernel " "$copy/results/$T/console.log" | grep -q " kverify.require=pmu" &&
	[ "$(json $R "[t[\"status\"] + \": \" + t[\"reason\"] for t in r[\"tests\"] if t[\"name\"] == \"pmu_counters_test\"][0]")" = "FAIL: kverify.require=pmu, but it skipped: no PMU in this guest" ] &&
	reason | grep -q "^--require pmu: 1 PMU tests skipped (pmu_counters_test); 2 passed, 1 failed, 0 skipped"
'
test_expect_success "then without it: boots again (the PASS was forgotten), then up to date" '
	verify && booted && verify && reused
'
test_expect_success "FORCE=1: it boots though nothing changed" '
	KVERIFY_FORCE=1 verify && booted
'
test_expect_success "a kept console edited by hand is not believed" '
	sed -i "s/^ok 3 pmu_counters_test # SKIP.*/ok 3 pmu_counters_test/" "$memo" &&
	verify && booted
'
test_expect_success "a kept file naming another hash is not believed" '
	sed -i "1s/^kverify memo2 [0-9a-f]* /kverify memo2 0123456789abcdef /" "$memo" &&
	verify && booted
'
# The results elsewhere (--results): the initramfs list that the tree's
# gen_init_cpio reads, in the sandbox, is there.
test_expect_success "--results outside the checkout: the initramfs is made from there, it boots" '
	(cd "$copy" && KVERIFY_FORCE=1 PATH=$fake:$PATH ./build/kverify --results "$TMP/elsewhere" \
		--boot $BOOT verify --skip sim,checkpatch,cocci $T) > "$TMP/out" 2>&1 &&
	[ "$(step_status "$TMP/elsewhere/$T/report.json" boot)" = PASS ] &&
	[ -s "$TMP/elsewhere/$T/boot/initramfs.list" ]
'
done_testing
