#!/bin/bash
# make bundle: the kernel, the initramfs with the runner and the tests, a
# README, SHA256SUMS and LAVA jobs a lab submits as they are: lava-common's
# schema accepts them, no template word is left, the URLs are ARTIFACTS=
# (default the bundle's directory as file://), each artifact's sha256sum is
# the file's, the metadata (with the series' revision, change-id, patchset
# hash and Message-Id, as report.json has them) and the device tags are set, the kernel command
# line carries the tolerance and what the tests need; a bad ARTIFACTS=
# exits 2.  BOOT=own: our kernel for a QEMU guest, as for a git: source
# (t0185 bundles Debian's image).  Cost: one make bundle of the cached 6.12 build (50 s with the
# boot memoized, 2 min when the runner changed), two more with other
# URLs (memoized, a few s each).
# tier: kernels
# lane: 1
. "$(dirname "$0")/lib.sh"

T=${KVERIFY_BUNDLE_TARGET:-6.12}
plan 19

validate() {
	/usr/bin/python3 -c '
import sys, yaml
from lava_common.schemas import validate
validate(yaml.safe_load(open(sys.argv[1])), strict=True)' "$1"
}

for job in tools/lava/qemu.yaml tools/lava/x86.yaml tools/lava/qemu-tcg.yaml; do
	test_expect_success "template $job is a valid LAVA job (lava_common.schemas, strict)" "
		validate $job
	"
done
sed '/pattern:/d' tools/lava/qemu.yaml > "$TMP/broken.yaml"
test_expect_success 'a job whose monitor has no pattern is rejected' '
	! validate "$TMP/broken.yaml"
'

B=results/$T/bundle
JOBS="lava-qemu-intel.yaml lava-qemu-amd.yaml lava-x86-intel.yaml lava-x86-amd.yaml lava-qemu-tcg.yaml"
rm -rf $B
test_expect_success "make bundle KERNEL=$T writes the bundle" '
	make --no-print-directory bundle KERNEL=$T BOOT=own SKIP=sim > "$TMP/out" 2>&1 &&
	missing= &&
	for f in bzImage initramfs.cpio README SHA256SUMS $JOBS latency.cpio latency-host; do
		test -s $B/$f || missing="$missing $f"
	done &&
	echo "missing:$missing" && [ -z "$missing" ]
'
test_expect_success 'the initramfs holds /init, busybox, the control and PMU tests and the plan' '
	cpio -it < $B/initramfs.cpio > "$TMP/list" 2>/dev/null &&
	grep -qx init "$TMP/list" && grep -qx bin/busybox "$TMP/list" &&
	grep -qx tests/cpuid_test "$TMP/list" && grep -qx tests/plan "$TMP/list" &&
	grep -q "^tests/pmu_" "$TMP/list"
'
test_expect_success 'the latency kit: the guest initramfs with its /init, pmu-toggle, busybox; the host driver' '
	cpio -it < $B/latency.cpio > "$TMP/llist" 2>/dev/null &&
	grep -qx init "$TMP/llist" && grep -qx bin/pmu-toggle "$TMP/llist" &&
	grep -qx bin/busybox "$TMP/llist" && grep -qx bin/sh "$TMP/llist" &&
	test -x $B/latency-host && cmp $B/latency-host tools/guest/latency-host
'
test_expect_success 'every job of the bundle is valid and holds no template word or placeholder' '
	invalid= &&
	for j in $JOBS; do
		validate $B/$j || invalid="$invalid $j"
	done &&
	echo "invalid:$invalid" && [ -z "$invalid" ] &&
	! grep -n "@[A-Z_0-9]*@\|example\.\|\.invalid\|ARTIFACTS" $B/lava-*.yaml
'

# What a lab's scheduler and dispatcher read, checked from the YAML.
check_jobs() {	# check_jobs URL: every job's URLs, sums, metadata, tags, command line
	/usr/bin/python3 - "$B" "$1" "$T" $JOBS <<'PY'
import hashlib, json, sys, yaml
b, url, target, jobs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
sums = {f: hashlib.sha256(open("%s/%s" % (b, f), "rb").read()).hexdigest()
        for f in ("bzImage", "initramfs.cpio")}
own = "own build of configs/kvm-guest.config, made for a QEMU guest"
pkg = json.load(open("%s/../report.json" % b))["package"]
bad = []
for name in jobs:
    j = yaml.safe_load(open("%s/%s" % (b, name)))
    dep = [a["deploy"] for a in j["actions"] if "deploy" in a][0]
    imgs = dep.get("images", dep)
    k, r = imgs["kernel"], imgs["ramdisk"]
    for img, f in ((k, "bzImage"), (r, "initramfs.cpio")):
        if img["url"] != "%s/%s" % (url, f):
            bad.append("%s: url %s" % (name, img["url"]))
        if img.get("sha256sum") != sums[f]:
            bad.append("%s: sha256sum of %s %s, the file's %s" % (name, f, img.get("sha256sum"), sums[f]))
    m = j.get("metadata", {})
    want = {"kverify.target": target, "kverify.package": pkg["name"],
            "kverify.package.version": pkg["version"], "kverify.tolerance": "1000"}
    for key, v in want.items():
        if m.get(key) != v:
            bad.append("%s: metadata %s=%r, not %r" % (name, key, m.get(key), v))
    if m.get("kverify.kernel") != own:
        bad.append("%s: metadata kverify.kernel=%r" % (name, m.get("kverify.kernel")))
    if "tcg" in name and "-accel tcg" not in j["context"]["extra_options"]:
        bad.append("%s: QEMU options %s" % (name, j["context"]["extra_options"]))
    if not m.get("kverify.version") or m["kverify.version"] == "unknown":
        bad.append("%s: no kverify.version" % name)
    rep = json.load(open("%s/../report.json" % b))
    none = lambda v: "none" if v is None else str(v)
    for key, v in (("revision", rep["series_revision"]), ("change_id", rep["change_id"]),
                   ("patchset_hash", rep["patchset_hash"]), ("message_id", rep["message_id"])):
        if m.get("kverify.series." + key) != none(v):
            bad.append("%s: metadata kverify.series.%s=%r, report.json %r" % (name, key, m.get("kverify.series." + key), v))
    cmdline = k.get("image_arg", "") + " " + j.get("context", {}).get("extra_kernel_args", "")
    for arg in ("kvm.force_emulation_prefix=1", "kvm.emulated_counter_reprogram_tolerance=1000"):
        if arg not in cmdline.split():
            bad.append("%s: %s not on the kernel command line" % (name, arg))
    tags = j.get("tags", [])
    if "tcg" in name:
        if tags or "kverify.require=pmu" in cmdline.split() or j["context"].get("no_kvm") != 1:
            bad.append("%s: the TCG job has tags %s or requires a PMU or has KVM" % (name, tags))
    else:
        vendor = "intel" if "intel" in name else "amd"
        if sorted(tags) != sorted(["kvm", "pmu-" + vendor]):
            bad.append("%s: tags %s" % (name, tags))
        if "kverify.require=pmu" not in cmdline.split():
            bad.append("%s: no kverify.require=pmu" % name)
for line in bad:
    print(line)
sys.exit(1 if bad else 0)
PY
}
test_expect_success 'default ARTIFACTS: file:// of the bundle; sums, metadata, tags, command line' '
	check_jobs "file://$PWD/$B" &&
	(cd $B && sha256sum -c SHA256SUMS)
'
test_expect_success 'ARTIFACTS=https://...: the jobs fetch from there (a trailing / dropped)' '
	make --no-print-directory bundle KERNEL=$T BOOT=own SKIP=sim ARTIFACTS=https://artifacts.lab.internal/kverify/6.12/ > "$TMP/out" 2>&1 &&
	check_jobs https://artifacts.lab.internal/kverify/6.12
'
for bad in "ftp://host/x" "https://host/a b" "https://host/it's" 'https://host/"x"' "https:///nohost" "file://relative/dir" "/srv/kverify" "https://host/{kernel}"; do
	test_expect_success "ARTIFACTS='$bad' exits 2 before any step, naming it" '
		KVERIFY_TARGETS=$T KVERIFY_SKIP=sim KVERIFY_ARTIFACTS="$bad" \
			build/kverify verify --env --bundle > "$TMP/out" 2>&1
		rc=$?; cat "$TMP/out"
		[ $rc = 2 ] && grep -qF "kverify: ARTIFACTS='"'"'$bad'"'"': " "$TMP/out" &&
		[ $(grep -c . "$TMP/out") -le 3 ]
	'
done
test_expect_success 'make bundle ARTIFACTS= and --artifacts give the same message' '
	! make --no-print-directory bundle KERNEL=$T BOOT=own SKIP=sim ARTIFACTS=ftp://host/x > "$TMP/out" 2>&1 &&
	grep -qF "kverify: ARTIFACTS='"'"'ftp://host/x'"'"': not an http://, https:// or file:// URL" "$TMP/out" &&
	{ build/kverify verify --bundle --artifacts ftp://host/x $T; [ $? = 2 ]; } &&
	{ build/kverify bundle --artifacts ftp://host/x $T > "$TMP/out2" 2>&1; [ $? = 2 ]; } &&
	grep -qF "kverify: ARTIFACTS='"'"'ftp://host/x'"'"': not an http://, https:// or file:// URL" "$TMP/out2"
'
done_testing
