# SPDX-License-Identifier: GPL-2.0
# A copy of this repository (tracked files and the built driver), for tests
# that change series or configuration without touching the real one.

repo_copy() {	# repo_copy DIR
	mkdir -p "$1/build"
	git ls-files -z | xargs -0 cp --parents -t "$1"
	cp "$KVERIFY" "$1/build/"
	touch "$1/build/kverify"
}

# pristine_sum TARGET NAME: a fingerprint of the cached pristine tree of
# TARGET (names, sizes, mtimes and inodes of every entry, and the KVM
# sources' contents); the listing stays in $TMP/pristine.NAME for a diff.
pristine_sum() {
	src=$(json results/$1/report.json 'r["source_key"]')
	(cd "$KVERIFY_CACHE/src/$src" &&
	 find . -printf '%p %s %T@ %i\n' | sort &&
	 md5sum arch/x86/kvm/*.c arch/x86/kvm/*.h) > "$TMP/pristine.$2"
	md5sum < "$TMP/pristine.$2"
}
