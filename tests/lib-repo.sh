# SPDX-License-Identifier: GPL-2.0
# A copy of this repository (tracked files and the built driver), for tests
# that change series or configuration without touching the real one.

repo_copy() {	# repo_copy DIR
	mkdir -p "$1/build"
	git ls-files -z | xargs -0 cp --parents -t "$1"
	cp "$KVERIFY" "$1/build/"
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
