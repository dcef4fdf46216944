# SPDX-License-Identifier: GPL-2.0
# A copy of this repository (tracked files and the built driver), for tests
# that change series or configuration without touching the real one.
# The sources keep their times and build/ comes whole (objects, version.c),
# so that the first make in the copy finds kverify up to date instead of
# compiling it all again (~13 CPU-s a copy); it only relinks it with the
# copy's own version.c (no git description outside a clone).
repo_copy() {	# repo_copy DIR
	mkdir -p "$1/build"
	git ls-files -z | xargs -0 cp --preserve=timestamps --parents -t "$1"
	cp -a "${KVERIFY%/*}/." "$1/build/"
	touch "$1/build/kverify"
}

# pristine_sum DIR NAME: a fingerprint of the cached pristine tree DIR
# (cached_source's answer: names, sizes, mtimes and inodes of every entry,
# and the KVM sources' contents); the listing stays in $TMP/pristine.NAME
# for a diff.
pristine_sum() {
	(cd "$1" &&
	 find . -printf '%p %s %T@ %i\n' | sort &&
	 md5sum arch/x86/kvm/*.c arch/x86/kvm/*.h) > "$TMP/pristine.$2"
	md5sum < "$TMP/pristine.$2"
}

# esc_fixture COPY: a tree in $TMP/tree and, in the repository copy COPY, a
# series esc/ whose patch does not apply and whose reject holds 0xFF and an
# ESC sequence; COPY/k.list names it twice (esc, and notree: no tree).
esc_fixture() {
	local copy=$1
	mkdir -p "$TMP/tree/arch/x86/kvm" "$copy/esc"
	touch "$TMP/tree/Makefile"
	printf 'int a;\nint b;\nint c;\n' > "$TMP/tree/arch/x86/kvm/pmu.c"
	printf '0001-bad.patch\n' > "$copy/esc/series"
	printf 'From: a <a@b.example>\nSubject: [PATCH] x\n\n---\n--- a/arch/x86/kvm/pmu.c\n+++ b/arch/x86/kvm/pmu.c\n@@ -1,3 +1,3 @@\n int a;\n-int \377\033[31mred;\n+int d;\n int c;\n' \
		> "$copy/esc/0001-bad.patch"
	printf 'esc dir:%s esc\nnotree dir:%s esc\n' "$TMP/tree" "$TMP" > "$copy/k.list"
}

# test_identity: the operator the tests sign with, made now from this
# account at this machine (user@host, as git itself would guess it), an
# address whoever runs the test owns; "+role" for the others of a thread.
# A host name without a dot gets ".local", its name on its own link (RFC
# 6762): b4 takes an address without a dot in its domain for no person.
# Nothing of it is committed: a committed identity would be one nobody
# owns (the reserved domains kverify refuses) or a real person's.  Sets
# and exports GIT_COMMITTER_* and GIT_AUTHOR_*; $sender, $reviewer and
# $tester are "Name <email>".
test_identity() {
	local user host
	user=$(id -un | tr -c 'A-Za-z0-9._\n-' _)
	host=$(uname -n)
	case $host in
	'' | localhost | *.localhost | *.localdomain | *.example | *.test | *.invalid | example | test | invalid)
		host=$(cut -c1-12 /etc/machine-id) ;;	# this machine's own id
	esac
	case $host in *.*) ;; *) host=$host.local ;; esac
	sender_name='Kverify Test Sender'
	sender_email=$user@$host
	sender="$sender_name <$sender_email>"
	reviewer="Kverify Test Reviewer <$user+reviewer@$host>"
	tester="Kverify Test Tester <$user+tester@$host>"
	export GIT_COMMITTER_NAME="$sender_name" GIT_COMMITTER_EMAIL="$sender_email"
	export GIT_AUTHOR_NAME="$sender_name" GIT_AUTHOR_EMAIL="$sender_email"
}

# repo_fromless DIR: the patches of series/ and backports/ in the copy DIR
# as the repository keeps the project's own: a From:, Signed-off-by: or
# Co-developed-by: naming an address nobody owns goes (and the blank line
# it leaves before "---"), as the v4 contract has it; a no-op on patches
# that carry none.
repo_fromless() {
	local f
	for f in "$1"/series/*.patch "$1"/backports/*/*.patch; do
		[ -f "$f" ] || continue
		perl -0pi -e 's/^(From|Signed-off-by|Co-developed-by): [^\n]*\@[A-Za-z0-9.-]*\.(example|test|invalid|localhost)>\n//mg; s/\n\n(---\n)/\n$1/' "$f"
	done
}

# kabi_pmc_variant COPY SERIES T: in the repository copy COPY, the series
# SERIES and a fixture patch adding a field at the start of struct kvm_pmc
# (made from the real header of the source in report.json $R), as target
# T-kabi of kernels.list.  The same bytes each time, so one tree serves
# every script that makes it (t0185, t0186).
kabi_pmc_variant() {
	local copy=$1 series=$2 T=$3 hdr line src
	mkdir -p "$copy/tests-kabi"
	cp -r "$series" "$copy/tests-kabi/variant"
	cat > "$copy/tests-kabi/variant/9999-kabi-fixture.patch" <<'EOF'
Subject: [PATCH] test fixture: one more field in struct kvm_pmc

---
 arch/x86/include/asm/kvm_host.h | 1 +
 1 file changed, 1 insertion(+)

diff --git a/arch/x86/include/asm/kvm_host.h b/arch/x86/include/asm/kvm_host.h
--- a/arch/x86/include/asm/kvm_host.h
+++ b/arch/x86/include/asm/kvm_host.h
@@ -1 +1,2 @@
EOF
	# The hunk is made from the real header: a field after the struct's opening.
	hdr=$SOURCES/src/$(json $R 'r["source_key"]')/arch/x86/include/asm/kvm_host.h
	line=$(grep -n '^struct kvm_pmc {$' "$hdr" | cut -d: -f1)
	python3 - "$hdr" "$line" "$copy/tests-kabi/variant/9999-kabi-fixture.patch" <<'EOF'
import sys
hdr, line, patch = sys.argv[1], int(sys.argv[2]), sys.argv[3]
lines = open(hdr).read().split("\n")
ctx = lines[line - 1:line + 2]
text = open(patch).read().rsplit("@@ -1 +1,2 @@\n", 1)[0]
text += "@@ -%d,3 +%d,4 @@\n" % (line, line)
text += " " + ctx[0] + "\n+\tu64 kverify_kabi_fixture;\n"
text += "".join(" " + l + "\n" for l in ctx[1:])
text += "-- \n2.39.5\n"
open(patch, "w").write(text)
EOF
	echo 9999-kabi-fixture.patch >> "$copy/tests-kabi/variant/series"
	src=$(grep "^$T[[:space:]]" kernels.list | awk '{print $2}')
	printf '%s-kabi\t%s\ttests-kabi/variant\n' "$T" "$src" >> "$copy/kernels.list"
}

# pmu_fixture_series DIR PATCH: a series of one patch, PATCH, adding a line
# after "int pmu;" in arch/x86/kvm/pmu.c (what pmu_fixture_tree holds).
pmu_fixture_series() {
	mkdir -p "$1"
	printf -- '--- a/arch/x86/kvm/pmu.c\n+++ b/arch/x86/kvm/pmu.c\n@@ -1 +1,2 @@\n int pmu;\n+int tolerance;\n' \
		> "$1/$2"
	echo "$2" > "$1/series"
}

# pmu_fixture_tree DIR: a tree that series applies to, with a file of 2000
# lines (lib/data.c) to damage.
pmu_fixture_tree() {
	mkdir -p "$1/arch/x86/kvm" "$1/lib"
	echo '# fixture' > "$1/Makefile"
	printf 'int pmu;\n' > "$1/arch/x86/kvm/pmu.c"
	seq 1 2000 > "$1/lib/data.c"
}

# fake_kernel_targets FAKE COPY: a fixture "kernel tree" FAKE whose bzImage
# is 8 jobs, each running FAKE/job.sh (the script writes its own) with the
# build directory, and in the repository copy COPY three targets of it
# (fake1..3, a series of one patch, configs/fake.config) as kernels.list.
fake_kernel_targets() {
	local fake=$1 copy=$2 i
	mkdir -p "$fake/scripts" "$copy/backports/fake"
	cat > "$fake/Makefile" <<'MK'
O ?= .
JOBS := 1 2 3 4 5 6 7 8
tinyconfig allnoconfig olddefconfig:
	@mkdir -p $(O) && touch $(O)/.config
	@grep -q '^CONFIG_FAKE=y' $(O)/.config || echo CONFIG_FAKE=y >> $(O)/.config
bzImage: $(addprefix job-,$(JOBS))
job-%:
	@sh $(CURDIR)/job.sh $(O)
.PHONY: bzImage tinyconfig allnoconfig olddefconfig
MK
	printf '#!/bin/sh\nexit 0\n' > "$fake/scripts/config"
	printf 'fixture\n' > "$fake/README"
	printf -- '--- a/README\n+++ b/README\n@@ -1 +1,2 @@\n fixture\n+patched\n' \
		> "$copy/backports/fake/0001-fake.patch"
	echo 0001-fake.patch > "$copy/backports/fake/series"
	printf '# base: tinyconfig\nCONFIG_FAKE=y\n' > "$copy/configs/fake.config"
	for i in 1 2 3; do
		echo "fake$i dir:$fake backports/fake configs/fake.config"
	done > "$copy/kernels.list"
}
