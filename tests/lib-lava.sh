# SPDX-License-Identifier: GPL-2.0
# lava-run (Debian's lava-dispatcher) on a local qemu device whose
# dictionary is rendered from the job's context as lava-server's qemu
# device type would (tests/lava/qemu-device.py), for the scripts that run
# a bundle's TCG job under LAVA: t0164 (BOOT=own), t0185 (BOOT=distro).

lava_run_missing() {	# why lava-run cannot run here, or nothing
	command -v lava-run > /dev/null || { echo "no lava-run (apt-get install lava-dispatcher)"; return; }
	[ "$(id -u)" = 0 ] || { echo "not root: lava-run refuses to run as uid $(id -u)"; return; }
	[ -w /var/lib/lava/dispatcher ] || { echo "/var/lib/lava/dispatcher is not writable (lava-dispatcher's working directory)"; return; }
	command -v qemu-system-x86_64 > /dev/null || { echo "no qemu-system-x86_64"; return; }
	/usr/bin/python3 -c 'import lava_dispatcher.parser' 2> /dev/null || echo "lava_dispatcher does not import in /usr/bin/python3"
}
test_lazy_prereq LAVA_RUN '[ -z "$(lava_run_missing)" ]'

# lava-run's job id names its directory in /var/lib/lava/dispatcher/tmp:
# one of this script's own, so two runs side by side do not share one.
LAVA_JOB_ID=kverify-$$
run_lava() {	# run_lava JOB OUTDIR: lava-run's log in OUTDIR.log
	/usr/bin/python3 tests/lava/qemu-device.py "$1" > "$2.device.yaml" &&
	timeout 1200 lava-run --job-id "$LAVA_JOB_ID" --output-dir "$2" \
		--device "$2.device.yaml" "$1" > "$2.log" 2>&1
}
