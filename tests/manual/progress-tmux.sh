#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# By hand, not in make check (it needs tmux and minutes of a real kernel
# build): a verify of TARGET with our own kernel, from an empty build
# directory, in a tmux pane; prints the pane every 15 s for CAPTURES times,
# so that one sees the progress line move.  The source is linked from the
# cache, the build goes to a private cache beside it, removed afterwards.
#
#   tests/manual/progress-tmux.sh [TARGET] [CAPTURES]
set -u
cd "$(dirname "$0")/../.." || exit 1
T=${1:-6.12}
N=${2:-10}
case ${XDG_CACHE_HOME-} in /*) ;; *) unset XDG_CACHE_HOME ;; esac	# a relative one is invalid (XDG spec): ignored, as by kverify
cache=${KVERIFY_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kverify}
[ -d "$cache/src" ] || { echo "progress-tmux: no $cache/src: run make verify KERNEL=$T first" >&2; exit 2; }
command -v tmux > /dev/null || { echo "progress-tmux: tmux not found: apt-get install tmux" >&2; exit 2; }
work=$(mktemp -d "$cache/progress-tmux.XXXXXX")
session=kverify-progress-$$
trap 'tmux kill-session -t "$session" 2> /dev/null; rm -rf "$work"' EXIT
mkdir -p "$work/cache"
cp -al "$cache/src" "$work/cache/src" && cp -a "$cache/apt" "$work/cache/apt" || exit 1
tmux new-session -d -s "$session" -x 150 -y 8 \
	env KVERIFY_CACHE="$work/cache" build/kverify --boot own --results "$work/results" \
	verify --skip sim,checkpatch,cocci,selftests,boot "$T"
for i in $(seq "$N"); do
	sleep 15
	echo "--- $(date +%T)"
	tmux capture-pane -p -t "$session" | grep -v '^$' | tail -n 1
done
