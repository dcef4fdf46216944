#!/bin/bash
# BOOT=distro: Debian's own kernel image of the source's version boots with
# the patched KVM modules built against its headers; the kabi step compares
# their export CRCs with Debian's Module.symvers.  make bundle BOOT=distro
# puts that image and the patched modules in the lab's bundle, and LAVA's
# own dispatcher (lava-run, prerequisite LAVA_RUN as in t0164) runs the
# bundle's TCG job as it stands: LAVA's job result pass, Debian's kernel
# on its console, a result per test case equal to report.json's of the
# same boot.  A fixture variant that adds a field to struct kvm_pmc must
# break the kABI, naming the symbols; a suite without the image of that
# exact version gives the reason.  Editing a patch compiles only what it
# changes; a module build or a download of Debian's packages cut short by
# SIGKILL leaves a cache the next run passes with (the download: up to the
# config step that unpacks it); a file a patch creates is the series',
# never kbuild's to drop or keep.  The CRCs of drivers/vfio, which
# includes KVM's headers, are computed again (cpp and genksyms, no
# compile) when a header the series touches changes, and kept when only
# KVM's .c files do.
# Cost here (2 vCPUs, no usable /dev/kvm, TCG): with a cold cache of its
# own (the sources fetched), 391 s wall and 493 CPU-s; LAVA's job in it
# ~8 s (the PMU tests skip at once).
# tier: kernels
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"
. "$(dirname "$0")/lib-lava.sh"

T=${KVERIFY_DISTRO_BOOT_TARGET:-6.12}
QUICK=sim,checkpatch,cocci
plan 33
reason() { json "$1" "[s['reason'] for s in r['steps'] if s['name'] == '$2'][0]" 2>/dev/null; }
# Sections 1. and 2. boot: Debian's kernel, under QEMU.
test_lazy_prereq QEMU 'command -v qemu-system-x86_64'

# 1. A normal run: every step passes, kabi too, on Debian's kernel.  It
# boots (FORCE=1): a PASS another script kept has no console to read.
R=results/$T/report.json
test_expect_success QEMU "make verify KERNEL=$T BOOT=distro passes" '
	make --no-print-directory verify KERNEL=$T BOOT=distro SKIP=$QUICK FORCE=1 > "$TMP/out" 2>&1
	rc=$? && echo "exit $rc" && tail -n 28 "$TMP/out" &&
	[ $rc = 0 ]
'
test_expect_success QEMU 'every step passes, kabi included' - <<\EOT
	statuses=$(json $R '" ".join(s["name"] + "=" + s["status"] for s in r["steps"])') &&
	want="fetch=PASS tree=PASS apply=PASS sim=SKIP checkpatch=SKIP cocci=SKIP config=PASS build=PASS kabi=PASS selftests=PASS boot=PASS" &&
	echo "$statuses" &&
	[ "$statuses" = "$want" ]
EOT
test_expect_success QEMU "kabi: the CRCs equal Debian's" - <<\EOT
	reason $R kabi | cut -c1-120 &&
	reason $R kabi | grep -Eq "^[0-9]+ exported symbols of arch/x86/kvm's modules: CRCs equal Debian's"
EOT
test_expect_success QEMU "the rebuilt modules carry no debug information: no step reads it, and the CRCs and vermagic above are Debian's without it" - <<\EOT
	ko=$(find "$KVERIFY_CACHE/trees/$T/arch/x86/kvm" -name kvm.ko) && [ -n "$ko" ] &&
	! readelf -S "$ko" | grep -E "\.debug_(info|line)|\.BTF" &&
	grep -q "CONFIG_DEBUG_INFO=y" "$KVERIFY_CACHE/build/$T-debian-kbuild/.config"
EOT
kernel=$(json $R 'r["kernel"]' 2>/dev/null)
image=$(json $R 'r["image"] + " " + r["image_version"]' 2>/dev/null)
ver=$(json $R 'r["image_version"]' 2>/dev/null)
test_expect_success QEMU "the report and the console name the kernel that booted: $kernel ($image)" - <<\EOT
	[ -n "$kernel" ] && reason $R boot | grep -qF "booted Debian's $kernel ($image)" &&
	grep -q "Linux version $kernel" results/$T/console.log
EOT
test_expect_success QEMU 'the guest loaded the patched kvm.ko and its 9 plumbing checks and the control pass' - <<\EOT
	bad=$(json $R '[t["name"] for t in r["tests"] if (t["name"].startswith("param:") or t["name"] == "cpuid_test") and t["status"] != "PASS"]') &&
	echo "not passing: $bad" &&
	[ "$bad" = "[]" ] && grep -q "^# insmod kvm " results/$T/console.log
EOT

# 1b. The lab's bundle holds what was verified: Debian's image of the
# source's version, the patched modules in the initramfs (docs/lab.md).
B=results/$T/bundle
deb_vmlinuz=$(ls "$SOURCES"/debian/*/boot/vmlinuz-"$kernel" 2>/dev/null | head -n 1)
test_expect_success QEMU "make bundle KERNEL=$T BOOT=distro: the kernel is Debian's vmlinuz-$kernel, byte for byte" - <<\EOT
	rm -rf $B &&
	make --no-print-directory bundle KERNEL=$T BOOT=distro SKIP=$QUICK > "$TMP/bundle.out" 2>&1 &&
	grep -F "the kernel: Debian $image, the patched KVM modules in the initramfs" "$TMP/bundle.out" &&
	[ -n "$deb_vmlinuz" ] && cmp $B/vmlinuz "$deb_vmlinuz" && [ ! -e $B/bzImage ] &&
	(cd $B && sha256sum -c SHA256SUMS)
EOT
test_expect_success QEMU "the bundle's initramfs holds the patched kvm.ko (with the parameter) and its load order" - <<\EOT
	mkdir -p "$TMP/initrd" &&
	(cd "$TMP/initrd" && cpio -id --quiet lib/modules/kvm.ko tests/modules < "$OLDPWD/$B/initramfs.cpio") &&
	modinfo -F parm "$TMP/initrd/lib/modules/kvm.ko" | grep -q "^emulated_counter_reprogram_tolerance:" &&
	[ "$(modinfo -F vermagic "$TMP/initrd/lib/modules/kvm.ko" | cut -d" " -f1)" = "$kernel" ] &&
	grep -qx kvm "$TMP/initrd/tests/modules"
EOT
test_expect_success QEMU "every job boots vmlinuz with its sha256sum; metadata name Debian's image; the TCG job runs one thread" - <<\EOT
	/usr/bin/python3 - "$B" "Debian $image, the patched KVM modules in the initramfs" <<\PY
import hashlib, sys, yaml
b, want = sys.argv[1], sys.argv[2]
sum_k = hashlib.sha256(open(b + "/vmlinuz", "rb").read()).hexdigest()
bad = []
for name in ("lava-x86-intel.yaml", "lava-x86-amd.yaml", "lava-qemu-intel.yaml", "lava-qemu-amd.yaml", "lava-qemu-tcg.yaml"):
    j = yaml.safe_load(open(b + "/" + name))
    dep = [a["deploy"] for a in j["actions"] if "deploy" in a][0]
    k = dep.get("images", dep)["kernel"]
    if not k["url"].endswith("/vmlinuz") or k.get("sha256sum") != sum_k:
        bad.append("%s: kernel %s %s" % (name, k["url"], k.get("sha256sum")))
    if j["metadata"].get("kverify.kernel") != want:
        bad.append("%s: kverify.kernel=%r" % (name, j["metadata"].get("kverify.kernel")))
    if "tcg" in name and "-accel tcg,thread=single" not in j["context"]["extra_options"]:
        bad.append("%s: %s" % (name, j["context"]["extra_options"]))
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
EOT
# 1c. LAVA's own dispatcher runs that bundle's TCG job as it stands, as
# t0164 runs BOOT=own's (tests/lib-lava.sh): it downloads the bundle's
# vmlinuz (Debian's, above) and boots it, and its results are those of
# kverify's boot of the same kernel and initramfs.  The results alone do
# not tell the kernels apart: our own 6.12 bzImage in vmlinuz's place (KVM
# built in, the patched modules not loaded) gives the same 22; the console's
# banner does.
lava_why=$(lava_run_missing)
[ -z "$lava_why" ] || echo "LAVA_RUN: $lava_why" | diag
test_expect_success QEMU,LAVA_RUN "lava-run runs the bundle's TCG job unchanged: job result pass, Debian's $kernel booted, every result report.json's" - <<\EOT
	{ run_lava $B/lava-qemu-tcg.yaml "$TMP/lava"; rc=$?; } &&
	grep -o "\"msg\": \"[^\"]*\"" "$TMP/lava.log" | grep -v "progress\|Listened" | tail -n 15 &&
	[ $rc = 0 ] && grep -q "^result: pass" "$TMP/lava/result.yaml" &&
	grep -q "downloading file://$PWD/$B/vmlinuz\"" "$TMP/lava.log" &&
	grep -q "Boot command: [^\"]*qemu-system-x86_64 .*-accel tcg,thread=single -cpu max" "$TMP/lava.log" &&
	grep -qF "Linux version $kernel (debian-kernel@lists.debian.org)" "$TMP/lava.log" &&
	/usr/bin/python3 tests/lava/compare.py "$TMP/lava.log" $R
EOT
# 2. Warm: nothing is rebuilt.
test_expect_success QEMU 'a warm run passes and rebuilds nothing' '
	make --no-print-directory verify KERNEL=$T BOOT=distro SKIP=$QUICK > "$TMP/out" 2>&1
	rc=$? && echo "exit $rc: $(reason $R build | cut -c1-60)" &&
	[ $rc = 0 ] && reason $R build | grep -q "^up to date" && reason $R config | grep -vq "fetched" &&
	reason $R selftests | grep -q "^up to date: .*; [0-9] static tests: "
'
test_expect_success QEMU 'a test binary removed: the selftests are built again, and it is back' '
	bin=$(find "$KVERIFY_CACHE/build/$T-kselftest/kvm" -name cpuid_test -type f) && [ -n "$bin" ] &&
	rm "$bin" &&
	make --no-print-directory verify KERNEL=$T BOOT=distro SKIP=$QUICK > "$TMP/out" 2>&1 &&
	! reason $R selftests | grep -q "^up to date" && [ -x "$bin" ]
'

# 2b. REQUIRE=pmu, for a lab with PMU hardware: here, with no vPMU, every
# PMU test SKIPs, so the same green run is a FAIL naming them, and each of
# them a failure with its reason for every reader alike: report.json, the
# table, junit.xml, KCIDB (FORMAT=kcidb), and LAVA's monitor of the same
# console (the guest runner, booted with kverify.require=pmu as the
# bundle's KVM jobs are, prints them "not ok").  The run before, without
# REQUIRE=pmu, is kept to show that without it nothing changes.
cp $R "$TMP/noreq.json" && cp results/$T/junit.xml "$TMP/noreq.xml" && rm -f results/$T/kcidb.json
test_expect_success QEMU 'REQUIRE=pmu turns it into a boot FAIL naming the skipped PMU tests' - <<\EOT
	skipped=$(json $R 'len([t for t in r["tests"] if t["name"].startswith("pmu_") and t["status"] == "SKIP"])') &&
	make --no-print-directory verify KERNEL=$T BOOT=distro SKIP=$QUICK REQUIRE=pmu FORMAT=kcidb > "$TMP/out" 2>&1
	rc=$? && echo "exit $rc, $skipped PMU tests skipped: $(reason $R boot | cut -c1-100)" &&
	[ $rc = 2 ] && [ "$skipped" -gt 0 ] && [ "$(step_status $R boot)" = FAIL ] &&
	reason $R boot | grep -q "^--require pmu: $skipped PMU tests skipped (pmu_" &&
	[ "$(json $R 'r["passed"]')" = False ]
EOT
# NAME<TAB>REASON of each PMU test SKIP without REQUIRE=pmu
json "$TMP/noreq.json" '"\n".join(t["name"] + "\t" + t["reason"] for t in r["tests"] if t["name"].startswith("pmu_") and t["status"] == "SKIP")' > "$TMP/skips" 2>/dev/null
nskip=$(grep -c . "$TMP/skips")
why="kverify.require=pmu, but it skipped: "
test_expect_success QEMU "report.json and the table: each of the $nskip PMU tests that skipped is a FAIL, its reason the SKIP's" - <<\EOT
	json $R '"\n".join(t["name"] + "\t" + t["status"] + "\t" + t["reason"] for t in r["tests"] if t["name"].startswith("pmu_"))' > "$TMP/req" &&
	sed "s/\t/\tFAIL\t$why/" "$TMP/skips" > "$TMP/want" &&
	head -n 3 "$TMP/req" && [ "$nskip" -gt 0 ] && diff "$TMP/want" "$TMP/req" &&
	[ "$(grep -c "^    FAIL pmu_.*: $why" "$TMP/out")" = "$nskip" ] && ! grep "^    SKIP pmu_" "$TMP/out"
EOT
test_expect_success QEMU "junit.xml: those $nskip are failures with the reason, none skipped; without REQUIRE=pmu they were skipped" - <<\EOT
	xmllint --noout --schema tests/junit/junit.xsd results/$T/junit.xml &&
	/usr/bin/python3 - results/$T/junit.xml "$TMP/noreq.xml" "$TMP/skips" "$why" <<-\PY
	import sys, xml.etree.ElementTree as ET
	def cases(f):
	    return {c.get("name"): c for c in ET.parse(f).iter("testcase")}
	req, noreq = cases(sys.argv[1]), cases(sys.argv[2])
	skips = dict(l.rstrip("\n").split("\t", 1) for l in open(sys.argv[3]) if l.strip())
	for name, reason in skips.items():
	    f = req[name].find("failure")
	    assert f is not None and req[name].find("skipped") is None, name
	    assert f.get("type") == "FAIL" and f.get("message") == sys.argv[4] + reason, (name, f.attrib)
	    assert noreq[name].find("skipped").get("message") == reason, name
	assert not [n for n, c in req.items() if n.startswith("pmu_") and c.find("skipped") is not None]
	print(len(skips), "failures")
	PY
EOT
test_expect_success QEMU "KCIDB (FORMAT=kcidb): those $nskip tests FAIL with the reason as comment, valid KCIDB" - <<\EOT
	/usr/bin/python3 tests/kcidb/check.py results/$T/kcidb.json &&
	/usr/bin/python3 - results/$T/kcidb.json "$TMP/skips" "$why" <<-\PY
	import json, re, sys
	tests = {t["path"]: t for t in json.load(open(sys.argv[1]))["tests"]}
	skips = [l.rstrip("\n").split("\t", 1) for l in open(sys.argv[2]) if l.strip()]
	got = [t for p, t in tests.items() if p.startswith("kverify.guest.pmu_")]
	assert len(got) == len(skips) and skips, (len(got), len(skips))
	assert all(t["status"] == "FAIL" for t in got), [t["status"] for t in got]
	reasons = sorted(t.get("comment") for t in got)
	assert reasons == sorted(sys.argv[3] + r for _, r in skips), reasons[:2]
	PY
EOT
test_lazy_prereq LAVA '/usr/bin/python3 -c "import lava_dispatcher.actions.test.monitor"'
test_expect_success QEMU,LAVA "LAVA: the console replayed through the KVM job's monitor (tools/lava/qemu.yaml) fails those $nskip cases, every case as report.json says" - <<\EOT
	[ "$(grep -c "^not ok [0-9]* pmu_.* # $why" results/$T/console.log)" = "$nskip" ] &&
	/usr/bin/python3 tests/lava/replay.py tools/lava/qemu.yaml results/$T/console.log > "$TMP/lava.json" &&
	/usr/bin/python3 - "$TMP/lava.json" $R <<-\PY
	import json, re, sys
	lava = json.load(open(sys.argv[1]))["results"]
	ours = {re.sub(r"\W+", "_", t["name"].strip().lower()): t["status"].lower()
	        for t in json.load(open(sys.argv[2]))["tests"]}
	bad = ["%s: kverify %s, LAVA %s" % (k, v, lava.get(k)) for k, v in ours.items() if lava.get(k) != v]
	bad += ["%s: LAVA %s only" % (k, v) for k, v in lava.items() if k not in ours]
	print("\n".join(bad) or "%d cases alike, %d fail" % (len(ours), list(lava.values()).count("fail")))
	assert not bad and any(k.startswith("pmu_") and v == "fail" for k, v in lava.items())
	PY
EOT

# 3. BOOT=own (our own kernel): kabi is N-A there.
test_expect_success 'with BOOT=own the kabi step is N-A, with the reason' '
	"$KVERIFY" --boot own verify --skip tree,apply,checkpatch,cocci,config,build,selftests,boot $T > "$TMP/out" 2>&1
	rc=$? && echo "exit $rc" &&
	[ "$(step_status $R kabi)" = N-A ] && reason $R kabi | grep -q "own-kernel boot"
'

test_expect_success 'BOOT=foo is bad input: exit 2' '
	test_expect_code 2 "$KVERIFY" --boot foo verify $T
'

# 4. A fixture variant adding a field to struct kvm_pmc breaks the kABI.
# The tree stamp is the patches' names and bytes, so a second run of this
# test reuses the fixture's module build.
copy=$KVERIFY_CACHE/tests/t0185-repo
rm -rf "$copy"
repo_copy "$copy"
series=$(json $R 'r["series"]')
kabi_pmc_variant "$copy" "$series" "$T"
K=$copy/results/$T-kabi/report.json
test_expect_success 'one more field in struct kvm_pmc: the build passes, kabi FAILS' '
	(cd "$copy" && ./build/kverify --boot distro verify --skip $QUICK,selftests,boot $T-kabi) > "$TMP/out" 2>&1
	rc=$? && echo "exit $rc" && tail -n 28 "$TMP/out" &&
	[ $rc = 1 ] && [ "$(step_status $K kabi)" = FAIL ] && [ "$(step_status $K build)" = PASS ]
'
test_expect_success 'kabi names the changed symbols' - <<\EOT
	reason $K kabi | cut -c1-140 &&
	reason $K kabi | grep -Eq "kABI broken .*: [0-9]+ changed CRC\(s\): [a-z_]+" &&
	json $K '[s["detail"] for s in r["steps"] if s["name"] == "kabi"][0]' | grep -q "^changed kvm_"
EOT
test_expect_success 'the config step says the build uses the patched kvm_host.h' '
	reason $K config | grep -q "patched: arch/x86/include/asm/kvm_host.h"
'
# 5. A suite without Debian's image of that exact version: a clear reason.
repo=$TMP/apt-repo
mkdir -p "$repo/dists/kverify-noimage/main/binary-amd64"
cat > "$repo/dists/kverify-noimage/main/binary-amd64/Packages" <<EOF
Package: linux-source-${T}
Version: ${ver}
Architecture: all
Maintainer: t0185 fixture
Filename: pool/linux-source.deb
Size: 1
SHA256: 0000000000000000000000000000000000000000000000000000000000000000
Description: a suite that lists the source and no image

Package: linux-image-${T}.0-99-amd64-unsigned
Version: 0.0-1
Architecture: amd64
Maintainer: t0185 fixture
Filename: pool/linux-image.deb
Size: 1
SHA256: 0000000000000000000000000000000000000000000000000000000000000000
Description: an image of another version
EOF
printf 'Suite: kverify-noimage\nCodename: kverify-noimage\nComponents: main\nArchitectures: amd64 all\n' > "$repo/dists/kverify-noimage/Release"
printf '%s-noimage\tdeb:linux-source-%s=%s@kverify-noimage\t%s\n' "$T" "$T" "$ver" "$series" >> "$copy/kernels.list"
N=$copy/results/$T-noimage/report.json
test_expect_success "no image of the source's version: config FAILS with the reason, no fallback" - <<\EOT
	(cd "$copy" && KVERIFY_DEBIAN_MIRROR="[trusted=yes] file:$repo" KVERIFY_TEST_APT_MAX_AGE=0 \
		./build/kverify --boot distro verify --skip $QUICK,tree,apply $T-noimage) > "$TMP/out" 2>&1
	rc=$? && echo "exit $rc" && reason $N config &&
	[ $rc = 1 ] && [ "$(step_status $N fetch)" = PASS ] && [ "$(step_status $N config)" = FAIL ] &&
	reason $N config | grep -q "kverify-noimage has no linux-image-$T\*-amd64\[-unsigned\] of version $ver (the source's).*never another.* 0.0-1"
EOT
rm -rf "$SOURCES/apt/kverify-noimage"

# 6. One patch edited: the tree step makes a fresh tree; kbuild's objects,
# kept beside the build, come back, and only pmu.o is compiled again.
edit=$TMP/edit
repo_copy "$edit"
# the knob's patch, whose lines the checks below edit
p1=$(grep -m1 Batch-counter-reprograms "$series/series")
sed -i 's/^+ \* perf-based vPMU before KVM reprograms it; 0 reprograms on every one\.$/+ * perf-based vPMU before KVM reprograms it, 0 reprograms on every one./' "$edit/$series/$p1"
grep -q 'reprograms it, 0 reprograms on every one' "$edit/$series/$p1" || echo "the edit of $p1 did not take" | diag
E=$edit/results/$T/report.json
blog=$edit/results/$T/logs/07-build.log
ko=$KVERIFY_CACHE/trees/$T/arch/x86/kvm/kvm.ko
ko_before=$(sha1sum < "$ko")
test_expect_success 'one patch edited: a fresh tree, pmu.o alone compiled again, drivers/vfio kept, kabi PASS' - <<\EOT
	(cd "$edit" && ./build/kverify --boot distro verify --skip $QUICK,selftests,boot $T) > "$TMP/edit.out" 2>&1
	rc=$? && echo "exit $rc, $(grep -c 'CC \[M\]  ' "$blog") compiled" &&
	grep 'CC \[M\]  ' "$blog" | head &&
	[ $rc = 0 ] && reason $E tree | grep -q "^fresh tree" && [ "$(step_status $E kabi)" = PASS ] &&
	grep -q 'CC \[M\]  .*/arch/x86/kvm/pmu\.o$' "$blog" &&
	[ "$(grep -c 'CC \[M\]  ' "$blog")" = 1 ] &&
	reason $E build | grep "; drivers/vfio up to date: no header the series touches, and none of their files, changed since their build;" &&
	! grep "M=.*/drivers/vfio" "$blog" &&
	reason $E kabi | grep -q " of drivers/vfio.s, which include linux/kvm_host.h"
EOT
# A comment edit leaves the code as it was: kvm.ko's bytes too, .BTF
# included (pahole's -j alone would write it anew), so the boot is kept.
test_expect_success 'a comment edited: kvm.ko has the bytes it had' '
	echo "before $ko_before, after $(sha1sum < "$ko")" &&
	[ "$(sha1sum < "$ko")" = "$ko_before" ]
'
# The edited series is other code: its store is its own (CCACHE_DIR names
# the store of its source and series), so pmu.o is compiled, a miss.
test_expect_success CCACHE "Debian's compiler behind ccache, the edited series' own store: pmu.o a miss" '
	reason $E build | grep "; ccache [0-9]* hits, [1-9][0-9]* misses" &&
	grep "^\$ .*DEBIAN_KERNEL_USE_CCACHE=1 " "$blog" |
	grep -q " CCACHE_DIR=$KVERIFY_CACHE/ccache/[0-9a-f]\{16\} "
'

# A patch that rewords a comment line of include/linux/vfio.h (its lines
# where they were): drivers/vfio reads it, so its CRCs are computed again,
# kbuild preprocessing what exports symbols there, compiling nothing.
src=$(cached_source $T) || exit 1
python3 - "$src/include/linux/vfio.h" "$edit/$series/9999-vfio-comment.patch" <<\EOF
import sys
lines = open(sys.argv[1]).read().split("\n")
at = lines.index(" * VFIO API definition")
text = "Subject: [PATCH] test fixture: a comment of linux/vfio.h\n\n---\n"
text += "--- a/include/linux/vfio.h\n+++ b/include/linux/vfio.h\n"
text += "@@ -%d,5 +%d,5 @@\n" % (at - 1, at - 1)
text += "".join(" " + l + "\n" for l in lines[at - 2:at])
text += "-" + lines[at] + "\n+ * VFIO API definitions\n"
text += "".join(" " + l + "\n" for l in lines[at + 1:at + 3])
open(sys.argv[2], "w").write(text)
EOF
echo 9999-vfio-comment.patch >> "$edit/$series/series"
test_expect_success 'a header drivers/vfio includes edited: its CRCs computed again, with no compile, kabi PASS' - <<\EOT
	(cd "$edit" && ./build/kverify --boot distro verify --skip $QUICK,selftests,boot $T) > "$TMP/vfio.out" 2>&1
	rc=$? && echo "exit $rc" && tail -n 14 "$TMP/vfio.out" &&
	[ $rc = 0 ] && [ "$(step_status $E kabi)" = PASS ] &&
	! reason $E build | grep "up to date" &&
	grep -q "M=.*/drivers/vfio .*KCPPFLAGS=-D__GENKSYMS__" "$blog" &&
	grep 'CPP \[M\] .*/drivers/vfio/.*\.i$' "$blog" &&
	! grep 'CC \[M\]  .*/drivers/vfio/' "$blog"
EOT
sed -i '/^9999-vfio-comment.patch$/d' "$edit/$series/series"
rm "$edit/$series/9999-vfio-comment.patch"

# 7. SIGKILL in the middle of the module build: the next run builds again,
# what the killed make wrote made anew.
sed -i 's/^+ \* perf-based vPMU before KVM reprograms it, 0 reprograms on every one\.$/+ * perf-based vPMU before KVM reprograms it - 0 reprograms on every one./' "$edit/$series/$p1"
rm -f "$blog"
compiling_kvm() { grep -q 'CC \[M\]  .*/arch/x86/kvm/' "$blog" 2> /dev/null; }
(cd "$edit" && exec ./build/kverify --boot distro verify --skip $QUICK,selftests,boot $T) > "$TMP/kill.out" 2>&1 &
pid=$!
wait_for 600 compiling_kvm
kill -KILL $pid
wait $pid 2> /dev/null
sleep 1
kdir=$KVERIFY_CACHE/trees/$T/arch/x86/kvm
marker=$KVERIFY_CACHE/build/$T-debian-kbuild/.kverify-modules-building
# Where the kill may land: kbuild had written pmu.o and its .cmd, not yet
# the CRCs it appends to the .cmd (#SYMVER lines); made so here, whatever
# the kill hit.  make alone would keep that pmu.o and export no CRC.
sed -i '/^#SYMVER /d' "$kdir/.pmu.o.cmd" && touch "$kdir/pmu.o" ||
	echo "cannot edit $kdir/.pmu.o.cmd" | diag
test_expect_success 'after SIGKILL mid-build, the next run runs make again and passes, kabi PASS' - <<\EOT
	(cd "$edit" && ./build/kverify --boot distro verify --skip $QUICK,selftests,boot $T) > "$TMP/again.out" 2>&1
	rc=$? && echo "exit $rc" && tail -n 20 "$TMP/again.out" &&
	[ $rc = 0 ] && [ "$(step_status $E kabi)" = PASS ] && grep -q '^\$ .*make -C .* modules' "$blog"
EOT

# 8. A file the series creates empty has no "+++ " line; a fresh tree, and a
# killed build's marker older than it: the file is the series', not what
# the killed build wrote, and stays.  Dropped from the series, the file is
# not put back into the next fresh tree with kbuild's objects.
printf '%s\n' 'Subject: [PATCH] test fixture: an empty file' '' '---' \
	'diff --git a/arch/x86/kvm/t0185-empty.h b/arch/x86/kvm/t0185-empty.h' \
	'new file mode 100644' 'index 0000000..e69de29' > "$edit/$series/9998-empty-file.patch"
echo 9998-empty-file.patch >> "$edit/$series/series"
touch "$marker"
test_expect_success 'a killed build'"'"'s marker, a fresh tree: the file a patch creates empty stays, kabi PASS' - <<\EOT
	(cd "$edit" && ./build/kverify --boot distro verify --skip $QUICK,selftests,boot $T) > "$TMP/empty.out" 2>&1
	rc=$? && echo "exit $rc" && tail -n 14 "$TMP/empty.out" &&
	[ $rc = 0 ] && reason $E tree | grep -q "^fresh tree" && [ "$(step_status $E kabi)" = PASS ] &&
	[ -f "$kdir/t0185-empty.h" ]
EOT
sed -i '/^9998-empty-file.patch$/d' "$edit/$series/series"
rm "$edit/$series/9998-empty-file.patch"
test_expect_success 'that patch dropped: its file is not put back with the kept objects' - <<\EOT
	(cd "$edit" && ./build/kverify --boot distro verify --skip $QUICK,selftests,boot $T) > "$TMP/dropped.out" 2>&1
	rc=$? && echo "exit $rc" && tail -n 14 "$TMP/dropped.out" &&
	[ $rc = 0 ] && reason $E tree | grep -q "^fresh tree" && [ "$(step_status $E kabi)" = PASS ] &&
	! [ -e "$kdir/t0185-empty.h" ]
EOT

# A kill while the kept objects are copied back must find the marker
# already written: a half-copied object has a new mtime, and the next
# build removes it.  File times cannot tell the order here (the marker and
# the copies share a clock tick), the system calls can.
test_lazy_prereq STRACE 'strace -f --seccomp-bpf -o /dev/null true'
sed -i 's/^+ \* perf-based vPMU before KVM reprograms it - 0 reprograms on every one\.$/+ * perf-based vPMU before KVM reprograms it: 0 reprograms on every one./' "$edit/$series/$p1"
test_expect_success STRACE 'a fresh tree: the marker is written before the first kept object is copied back' - <<\EOT
	(cd "$edit" && exec strace -f --seccomp-bpf -o "$TMP/trace" -e trace=openat \
		./build/kverify --boot distro verify --skip $QUICK,selftests,boot $T) > "$TMP/trace.out" 2>&1
	rc=$? && echo "exit $rc" && tail -n 14 "$TMP/trace.out" &&
	[ $rc = 0 ] && reason $E tree | grep -q "^fresh tree" &&
	python3 - "$TMP/trace" "/${marker##*/}\"" "/trees/$T/arch/x86/kvm/" <<\EOF
import sys
lines = [l for l in open(sys.argv[1]) if "O_CREAT" in l]
def first(pred):
    return next((i for i, l in enumerate(lines) if pred(l)), None)
m = first(lambda l: sys.argv[2] in l)
o = first(lambda l: sys.argv[3] in l and '.o"' in l)
print("files created: the marker %s-th, the first object %s-th" % (m, o))
sys.exit(0 if m is not None and o is not None and m < o else 1)
EOF
EOT

# 9. SIGKILL while Debian's packages download, in a cache of this test's
# own (the source linked from the main cache, no Debian package yet).
cache=$TMP/cache
mkdir -p "$cache"
cp -al "$SOURCES/src" "$cache/src" && cp -a "$SOURCES/apt" "$cache/apt"
downloading() { ls -d "$cache"/debian/.tmp-*/debs > /dev/null 2>&1; }
(KVERIFY_CACHE=$cache KVERIFY_SOURCES=$cache exec "$KVERIFY" --boot distro verify --results "$TMP/r" --skip $QUICK,selftests,boot $T) > "$TMP/dl.out" 2>&1 &
pid=$!
wait_for 600 downloading
kill -KILL $pid
wait $pid 2> /dev/null
sleep 1
test_expect_success 'SIGKILL mid-download: nothing unpacked where a later run would trust it' - <<\EOT
	n=$(find "$cache/debian" -mindepth 1 -maxdepth 1 -name '[0-9]*' | wc -l) &&
	echo "$n unpacked" &&
	[ "$n" = 0 ]
EOT
# Up to the config step, which unpacks them: building the modules once
# more in this cache would prove nothing that 1. did not.
D=$TMP/r/$T/report.json
test_expect_success "the next run downloads again, its config step takes the image and the headers' Module.symvers, no temporary directory left" - <<\EOT
	KVERIFY_CACHE=$cache KVERIFY_SOURCES=$cache "$KVERIFY" --boot distro verify --results "$TMP/r" --skip $QUICK,build,kabi,selftests,boot $T > "$TMP/dl-again.out" 2>&1
	rc=$? && echo "exit $rc" && tail -n 20 "$TMP/dl-again.out" &&
	[ $rc = 0 ] && [ "$(step_status $D config)" = PASS ] && reason $D config | grep -q "(fetched)" &&
	ls "$cache"/debian/[0-9]*/boot/vmlinuz-* "$cache"/debian/[0-9]*/usr/src/linux-headers-*/Module.symvers > /dev/null &&
	! ls -d "$cache"/debian/.tmp-* > /dev/null 2>&1
EOT
done_testing
