#!/bin/bash
# A guest that hangs is killed at the timeout: the boot step fails with the
# console excerpt, and no QEMU process is left behind.  The KVM probe
# before it meets a QEMU that reports a KVM internal error and hangs, as
# QEMU does on a host whose /dev/kvm cannot run the guest: the probe stops
# at the message, not at its 30 s timeout.
# tier: kernels
# lane: 1
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

T=${KVERIFY_GUEST_TARGET:-6.12}
plan 5
series=$(target_series $T)
# the patch that adds the parameter
pk=$(cd "$series" && grep -l '^+static \(uint\|unsigned int\) __read_mostly emulated_counter_reprogram_tolerance;$' $(cat series) | head -n 1)
copy=$TMP/hang
repo_copy "$copy"
sed -i -E 's/^\+(static (uint|unsigned int) __read_mostly emulated_counter_reprogram_tolerance;)$/+static int __init kverify_hang(void) { pr_info("kverify: hanging on purpose\\n"); for (;;) cpu_relax(); return 0; } late_initcall(kverify_hang); \1/' "$copy/$series/$pk"
# QEMU as it behaves where KVM fails: the message, then a wait.
# (in the copy: QEMU runs in the sandbox, which sees it, not $TMP)
mkdir -p "$copy/fakebin"
cat > "$copy/fakebin/qemu-system-x86_64" <<EOF
#!/bin/sh
case " \$* " in
*" -accel kvm "*)
	echo "KVM internal error. Suberror: 1" >&2
	echo "emulation failure" >&2
	exec sleep 120 ;;
esac
exec $(command -v qemu-system-x86_64) "\$@"
EOF
chmod +x "$copy/fakebin/qemu-system-x86_64"
rm -f "$KVERIFY_CACHE/accel-probe"
# While the guest hangs: who runs QEMU (the real executable), and how.
# QEMU sets its seccomp filter (-sandbox) once it has read its options, a
# moment after the exec: the status is read again until the filter is
# there, and the last one read stays if it never comes.
qemu=$(readlink -f "$(command -v qemu-system-x86_64)")
(for i in $(seq 900); do
	for pid in $(pgrep -f "qemu-system-x86_64.*-kernel $KVERIFY_CACHE/build/$T/"); do
		[ "$(readlink /proc/$pid/exe)" = "$qemu" ] || continue
		grep -E "^(Uid|Gid|Groups|Seccomp|NoNewPrivs):" /proc/$pid/status > "$TMP/qemu.status.new" &&
			mv "$TMP/qemu.status.new" "$TMP/qemu.status"
		grep -Eqs "^Seccomp:[[:space:]]+2$" "$TMP/qemu.status" && exit 0
	done
	sleep 0.1
done) &
sampler=$!
(cd "$copy" && PATH=$copy/fakebin:$PATH KVERIFY_TEST_BOOT_TIMEOUT=30 ./build/kverify --boot own verify --skip sim,checkpatch,cocci $T) > "$TMP/out" 2>&1
rc=$?
kill $sampler 2> /dev/null
wait $sampler
rm -f "$KVERIFY_CACHE/accel-probe"	# this host's own answer, next time
R=$copy/results/$T/report.json
test_expect_success "a hanging guest fails the boot step, killed at the timeout (exit $rc)" - <<\EOT
	[ $rc = 1 ] && [ "$(step_status $R boot)" = FAIL ] &&
	json $R '[s["reason"] for s in r["steps"] if s["name"] == "boot"][0]' | grep -q "QEMU killed after 30s"
EOT
tail -n 12 "$TMP/out" | diag
test_expect_success 'the report holds a console excerpt; console.log holds the whole boot' - <<\EOT
	json $R '[s["detail"] for s in r["steps"] if s["name"] == "boot"][0]' | grep -q -- "--- console" &&
	grep -q "kverify: hanging on purpose" "$copy/results/$T/console.log"
EOT
test_expect_success "QEMU ran the guest as nobody, under its seccomp filter, with no new privileges and no group" '
	cat "$TMP/qemu.status" &&
	grep -Eq "^Uid:[[:space:]]+65534[[:space:]]+65534[[:space:]]+65534[[:space:]]+65534$" "$TMP/qemu.status" &&
	grep -Eq "^Seccomp:[[:space:]]+2$" "$TMP/qemu.status" &&
	grep -Eq "^NoNewPrivs:[[:space:]]+1$" "$TMP/qemu.status" &&
	grep -Eq "^Groups:[[:space:]]*$" "$TMP/qemu.status"
'
test_expect_success 'no QEMU process is left' '
	! pgrep -af "qemu-system-x86_64.*$KVERIFY_CACHE/build/$T/"
'
accel=$(json $R 'r["accel"]')
secs=$(json $R '[s["seconds"] for s in r["steps"] if s["name"] == "boot"][0]')
# Without a /dev/kvm this user can use, kverify does not probe.
test_lazy_prereq KVM '[ -r /dev/kvm ] && [ -w /dev/kvm ]'
test_expect_success KVM "the KVM probe stopped at QEMU's 'KVM internal error', not at its timeout: boot $secs s in all, with a 30 s hang (accel: $accel)" - <<\EOT
	echo "$accel" | grep -q 'QEMU said "KVM internal error"' &&
	python3 -c "import sys; sys.exit(not float('$secs') < 50)"
EOT
done_testing
