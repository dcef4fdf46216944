#!/bin/bash
# make sweep through apt, offline: a local unsigned Debian mirror served
# over HTTP on 127.0.0.1 (KVERIFY_DEBIAN_MIRROR with apt's [trusted=yes])
# has one suite, bookworm, whose index lists two linux-source-6.12
# versions: one .deb built here from the cached 6.12 tree, and one the
# pool lacks (the mirror answers 404, as for superseded security uploads).
# The other eight suites are not on this mirror.  No test hook: the
# listing (apt-cache madison), the download and the partial unpack of the
# .deb are the real ones; a version the suite lacks is named with the
# versions it has.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

plan 8
test_expect_success 'the 6.12 source is in the cache' '
	src612=$(cached_source 6.12)
'

copy=$TMP/repo
repo_copy "$copy"
export KVERIFY_SIM_TRACES=2000
unset KVERIFY_TEST_SWEEP_LIST

m=$TMP/mirror/debian
pool=$m/pool/main/l/linux
pkg=$TMP/pkg
mkdir -p "$pool" "$m/dists/bookworm/main/binary-amd64" "$pkg/DEBIAN" "$pkg/usr/src" \
	"$TMP/mirror/debian-security"
tar -C "$src612" -c --transform 's,^\.,linux-source-6.12,' ./Makefile ./COPYING \
	./CREDITS ./Kbuild ./MAINTAINERS ./README ./scripts ./Documentation/Makefile \
	./Documentation/admin-guide ./drivers/Makefile ./drivers/net/Kconfig \
	./fs/Makefile ./init ./ipc ./kernel/Makefile ./lib/Makefile \
	./include/linux/kvm_host.h ./arch/x86/kvm ./arch/x86/include \
	./tools/testing/selftests/kvm | xz -0 -T1 > "$pkg/usr/src/linux-source-6.12.tar.xz"
cat > "$pkg/DEBIAN/control" <<EOF
Package: linux-source-6.12
Version: 6.12.900-1
Architecture: all
Maintainer: t0211 fixture
Description: Linux kernel source (t0211 fixture)
EOF
test_expect_success 'a local mirror: bookworm lists 6.12.900-1 (in the pool) and 6.12.899-1 (not)' - <<\EOT
dpkg-deb --root-owner-group -Zxz -z0 --build "$pkg" "$pool/linux-source-6.12_6.12.900-1_all.deb" > /dev/null &&
(cd "$m" && dpkg-scanpackages pool /dev/null 2> /dev/null > dists/bookworm/main/binary-amd64/Packages) &&
	sed -n '/^Package:/,/^$/p' "$m/dists/bookworm/main/binary-amd64/Packages" |
	sed 's/^Version: .*/Version: 6.12.899-1/; s/6.12.900-1_all/6.12.899-1_all/' \
	>> "$m/dists/bookworm/main/binary-amd64/Packages" &&
	p=dists/bookworm/main/binary-amd64/Packages &&
	printf 'Suite: bookworm\nCodename: bookworm\nDate: %s\nArchitectures: amd64 all\nComponents: main\nSHA256:\n %s %s main/binary-amd64/Packages\n' \
		"$(date -u "+%a, %d %b %Y %H:%M:%S UTC")" "$(sha256sum < "$m/$p" | cut -d' ' -f1)" \
		"$(stat -c %s "$m/$p")" > "$m/dists/bookworm/Release"
EOT

python3 -u -m http.server --bind 127.0.0.1 0 --directory "$TMP/mirror" > "$TMP/http" 2>&1 &
http=$!
trap '_rc=$?; kill $http 2> /dev/null; _tmp_end $_rc' EXIT
wait_for 10 grep -q 'port [0-9]' "$TMP/http"
port=$(sed -n 's/.*port \([0-9]*\).*/\1/p' "$TMP/http" | head -n 1)
export KVERIFY_DEBIAN_MIRROR="[trusted=yes] http://127.0.0.1:$port/debian"
export KVERIFY_SECURITY_MIRROR="[trusted=yes] http://127.0.0.1:$port/debian-security"

cache=$TMP/cache
(cd "$copy" && ./build/kverify --cache "$cache" --sources "$cache" sweep --md "$TMP/sweep.md" \
	--json "$TMP/sweep.json") > "$TMP/out" 2> "$TMP/err"
swrc=$?
test_expect_success "one version checked, the one the pool lacks counted apart; exit $swrc" - <<\EOT
	cat "$TMP/out" && tail -n 20 "$TMP/err" &&
	[ $swrc = 0 ] && head -n 1 "$TMP/out" | grep -q '^sweep: PASS: 2 versions (1 pass, 0 n/a, 1 listed but not on the mirror); 1 checked, 0 unchanged and reused$'
EOT
test_expect_success 'the table: 6.12.900-1 passes every step with backports/6.12, 6.12.899-1 is 404' - <<\EOT
	grep -q '^| 6.12 6.12.900-1 | bookworm | backports/6.12 | PASS | PASS | PASS | PASS | PASS | PASS |' "$TMP/out" &&
	grep -q '^| 6.12 6.12.899-1 | bookworm | - | 404 |' "$TMP/out"
EOT
n=$(grep -c '^- suite .*apt-get' "$TMP/out")
test_expect_success "the eight suites this mirror lacks are reported ($n), and the sweep goes on" - <<\EOT
	[ "$n" = 8 ] && ! grep -q '^- suite bookworm:' "$TMP/out"
EOT
key=$(json "$TMP/sweep.json" '[v["source_key"] for v in r["versions"] if v["version"]=="6.12.900-1"][0]')
test_expect_success "the .deb is unpacked in part under a key of its own and not kept ($key)" - <<\EOT
	[ "$key" = deb-linux-source-6.12-6.12.900-1-partial-$(echo "$key" | sed 's/.*-partial-//') ] &&
	[ -f "$cache/src/$key/arch/x86/kvm/pmu.c" ] && [ ! -e "$cache/src/$key/drivers/net/Kconfig" ] &&
	[ -z "$(find "$cache" -name '*.deb')" ]
EOT
test_expect_success 'matrix --sweep lists what the archive lists' - <<\EOT
	(cd "$copy" && ./build/kverify --cache "$cache" --sources "$cache" matrix --sweep --ci github) > "$TMP/gh" 2> "$TMP/err" &&
	python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); assert [e["sweep"] for e in m["include"]] == ["linux-source-6.12=6.12.899-1@bookworm", "linux-source-6.12=6.12.900-1@bookworm"], m' "$TMP/gh"
EOT
# A version the suite does not have: the fetch step names those it has.
printf '6.12x deb:linux-source-6.12=6.12.99-1~deb12u1@bookworm backports/6.12\n' > "$copy/k.list"
test_expect_success 'a version the suite lacks: the fetch step ERRORs and lists the versions it has' '
	(cd "$copy" && ./build/kverify --cache "$cache" --sources "$cache" --list k.list verify \
		--skip tree,apply,sim,checkpatch,cocci,config,build,kabi,selftests,boot 6.12x) > "$TMP/v.out" 2>&1
	rc=$? && cat "$TMP/v.out" && [ $rc = 3 ] &&
	grep -q "fetch .*ERROR.* linux-source-6.12=6.12.99-1~deb12u1 is not in bookworm; it has 6.12.900-1, 6.12.899-1 (k.list:1: name one of them, or none for the newest)" "$TMP/v.out"
'
done_testing
