#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# profile.sh — where one benchmark case's kernel time goes: the system calls inside its timed part
# (counts, EAGAINs, sizes), page faults and context switches, and which functions take the faults.
# Counts, not times: they hold on a loaded machine. Run once per library to compare.
#   scripts/profile.sh [--server drain|per-read|per-reply|small-buf] [--lib NAME] [--case NAME] [--count N]
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
server=per-read lib=xwire case=atom-pipelined count=100000
while (($#)); do
  case $1 in
  --server) server=$2; shift 2 ;;
  --lib) lib=$2; shift 2 ;;
  --case) case=$2; shift 2 ;;
  --count) count=$2; shift 2 ;;
  *) sed -n '2,5p' "$0" >&2; exit 2 ;;
  esac
done

"$root/scripts/deps.sh"
dir=${XW_BENCH_BUILD:-$root/build-bench}
[[ -f $dir/build.ninja ]] || meson setup "$dir" -Dbuildtype=release -Dwerror=true -Dtests=false >/dev/null
ninja -C "$dir" bench/xwbench >/dev/null
bench=$dir/bench/xwbench
tmp=$(mktemp -d)

# The fake server runs on its own, so only the client is traced.
"$bench" --serve "$server" >"$tmp/display" &
spid=$!
trap 'kill "$spid" 2>/dev/null; wait "$spid" 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 50); do [[ -s $tmp/display ]] && break; sleep 0.1; done
display=$(cat "$tmp/display")
one() { "$bench" --one "$case" --lib "$lib" --display "$display" --count "$1"; }

echo "$case ×$count, $lib vs $server ($display)"

# meter_start and meter_stop each call getrusage: the timed part lies between them.
strace -f -T -e trace=sendmsg,recvmsg,writev,readv,read,write,poll,ppoll,mmap,munmap,brk,mremap,futex,getrusage \
  -o "$tmp/trace" "$bench" --one "$case" --lib "$lib" --display "$display" --count "$count"
python3 - "$tmp/trace" <<'EOF'
import collections, re, sys
calls, fails, nbytes, secs, sizes = (collections.Counter() for _ in range(5))
inside = 0
for line in open(sys.argv[1]):
    m = re.match(r'\d+\s+(\w+)\(.*= (-?\d+|0x[0-9a-f]+).*?<([\d.]+)>$', line)
    if not m:
        continue
    name, ret, t = m.group(1), m.group(2), float(m.group(3))
    if name == 'getrusage':
        inside += 1
        continue
    if inside != 1:
        continue
    calls[name] += 1
    secs[name] += t
    if ret.startswith('-'):
        fails[name] += 1
    elif name in ('sendmsg', 'recvmsg', 'writev', 'readv', 'read', 'write'):
        n = int(ret)
        nbytes[name] += n
        sizes[(name, 1 << max(n - 1, 0).bit_length())] += 1
print('\nsystem calls in the timed part (strace -T; times include strace\'s own cost)')
for name, n in calls.most_common():
    ok = n - fails[name]
    mean = '  mean %d B' % (nbytes[name] / ok) if nbytes[name] and ok else ''
    print('  %-9s %7d calls  %6d failed (EAGAIN)  %8.1f ms%s' % (name, n, fails[name], secs[name] * 1e3, mean))
print('  sizes (bytes, up to a power of two):')
for (name, top), n in sorted(sizes.items()):
    print('    %-9s <= %-8d %7d' % (name, top, n))
EOF

# Software events of the whole process, minus a run of 10 (start-up, connect, exit).
events=page-faults,context-switches,cpu-clock
perf stat -x, -e $events -o "$tmp/stat.n" "$bench" --one "$case" --lib "$lib" --display "$display" --count "$count"
perf stat -x, -e $events -o "$tmp/stat.0" "$bench" --one "$case" --lib "$lib" --display "$display" --count 10
python3 - "$tmp/stat.n" "$tmp/stat.0" "$count" <<'EOF'
import sys
def read(p):
    out = {}
    for line in open(p):
        f = line.strip().split(',')
        if len(f) > 2 and f[0] and not line.startswith('#'):
            try: out[f[2]] = float(f[0])
            except ValueError: pass
    return out
n, z, count = read(sys.argv[1]), read(sys.argv[2]), int(sys.argv[3])
print('\nperf stat (this run minus a run of 10, fresh process)')
for k in n:
    d = n[k] - z.get(k, 0)
    if k == 'cpu-clock':  # perf gives milliseconds
        print('  %-18s %12.1f ms  %.0f ns per operation' % (k, d, d * 1e6 / count))
    else:
        print('  %-18s %12.0f     %.4g per operation' % (k, d, d / count))
EOF

# Every page fault with its call chain: which code touches new memory.
perf record -q -g -e page-faults -c 1 -o "$tmp/faults.data" "$bench" --one "$case" --lib "$lib" \
  --display "$display" --count "$count" 2>/dev/null
echo
echo "page faults by function (perf record -e page-faults -c 1)"
perf report -i "$tmp/faults.data" --stdio --no-children --sort sym -g none -n 2>/dev/null |
  grep -v '^#' | grep -v '^$' | head -8
