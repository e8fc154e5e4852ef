# Sourced by run.sh (recognition) and det_run.sh (detection): the parts of a C++ vs Python
# training-throughput comparison that do not depend on the task. The caller sets
# PY, OUT, T, B, W, N, ROUNDS, PY_NHWC, LOAD_MAX, LOAD_WAIT_S, LOAD_WAIT_NEXT_S and defines
#   run_cpp ROUND        -> "samples_per_s step_s median_step_s fastest_quarter_step_s reader_s"
#   run_py ROUND SIDE    -> "samples_per_s step_s median_step_s fastest_quarter_step_s forward_s backward_s optimizer_s"
# (empty output = the run failed), then calls run_alternating_rounds and print_medians.

wait_quiet() {  # $1 = max seconds; waits while the 1-min load average is >= LOAD_MAX
  local waited=0 load
  load="$(cut -d' ' -f1 /proc/loadavg)"
  while awk -v l="$load" -v m="$LOAD_MAX" 'BEGIN{exit !(l >= m)}' && [ "$waited" -lt "$1" ]; do
    sleep 15
    waited=$((waited + 15))
    load="$(cut -d' ' -f1 /proc/loadavg)"
  done
  echo "$load (waited ${waited} s)"
}

cpp_step_summary() {  # $1 = a C++ training log (one line per step); prints run_cpp's fields for the steps after W
  $PY - "$1" "$W" "$N" "$B" <<'PYEOF'
import re, sys
log, w, n, b = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
rows = []
for m in re.finditer(r"global_step: (\d+),.*?avg_reader_cost: ([0-9.]+) s, avg_batch_cost: ([0-9.]+) s, "
                     r"avg_samples: ([0-9.]+)", open(log).read()):
    rows.append((int(m.group(1)), float(m.group(2)), float(m.group(3)), float(m.group(4))))
timed = [r for r in rows if r[0] > w]
if len(timed) != n or any(r[3] != b for r in timed):
    sys.exit(f"{log}: expected {n} timed steps of {b} samples, got {[(r[0], r[3]) for r in timed]}")
step = sum(r[2] for r in timed) / n
t = sorted(r[2] for r in timed)
med = t[n // 2] if n % 2 else (t[n // 2 - 1] + t[n // 2]) / 2
q = max(1, n // 4)
print(f"{b / step:.4f} {step:.4f} {med:.4f} {sum(t[:q]) / q:.4f} {sum(r[1] for r in timed) / n:.4f}")
PYEOF
}

py_result_fields() {  # $1 = a Python log; prints run_py's fields from its RESULT line
  sed -n 's/^RESULT python samples_per_s=\([^ ]*\) step_s=\([^ ]*\) median_step_s=\([^ ]*\) fastest_quarter_step_s=\([^ ]*\) forward_s=\([^ ]*\) backward_s=\([^ ]*\) optimizer_s=\([^ ]*\).*/\1 \2 \3 \4 \5 \6 \7/p' "$1"
}

# ROUNDS rounds of cpp, py (and pynhwc with PY_NHWC=1), the order rotating each round so that no
# side always runs first; each run waits for a quiet machine first. Writes $OUT/results.txt, one
# line per run: side round samples_per_s mean_step median_step fastest_quarter_step
# (C++: reader_s | Python: forward_s backward_s optimizer_s) load_before waited_s load_after wall_s
run_alternating_rounds() {
  RES="$OUT/results.txt"
  : > "$RES"
  local first=1 r side res try wait_s load start sides n order i
  local -a arr
  for r in $(seq 1 "$ROUNDS"); do
    sides="cpp py"
    [ "$PY_NHWC" = 1 ] && sides="cpp py pynhwc"
    read -r -a arr <<< "$sides"
    n=${#arr[@]} order=""
    for ((i = 0; i < n; i++)); do order="$order ${arr[$(( (i + r - 1) % n ))]}"; done
    for side in $order; do
      res=""
      for try in 1 2; do  # one retry when a run dies (e.g. killed by someone else's clean-up)
        if [ "$first" = 1 ]; then wait_s="$LOAD_WAIT_S"; first=0; else wait_s="$LOAD_WAIT_NEXT_S"; fi
        load="$(wait_quiet "$wait_s" | sed 's/ (waited \([0-9]*\) s)/ \1/')"
        start=$(date +%s)
        if [ "$side" = cpp ]; then res="$(run_cpp "$r" || true)"; else res="$(run_py "$r" "$side")"; fi
        [ -n "$res" ] && break
        echo "round $r $side: run failed (log in $OUT), retrying" >&2
      done
      [ -n "$res" ] || { echo "round $r $side failed twice (logs in $OUT)" >&2; exit 1; }
      echo "$side $r $res $load $(cut -d' ' -f1 /proc/loadavg) $(( $(date +%s) - start ))" >> "$RES"
      $PY - "$B" "$(tail -1 "$RES")" <<'PYEOF'
import sys
b, f = int(sys.argv[1]), sys.argv[2].split()
side, r, v = f[0], f[1], [float(x) for x in f[2:]]
if side == "cpp":
    name, extra, k = "C++   ", f"reader {v[4]:.4f} s", 5
else:
    name, extra, k = {"py": "Python", "pynhwc": "Python NHWC"}[side], f"forward+loss {v[4]:.3f} s, backward {v[5]:.3f} s, Adam {v[6]:.3f} s", 7
print(f"round {r} {name}: {v[0]:.3f} samples/s (mean step {v[1]:.3f} s); median step {v[2]:.3f} s = {b / v[2]:.3f}/s; "
      f"fastest quarter {v[3]:.3f} s = {b / v[3]:.3f}/s; {extra}; load {f[k + 2]} before (waited {f[k + 3]} s), "
      f"{f[k + 4]} after; {f[k + 5]} s", flush=True)
PYEOF
    done
  done
}

print_medians() {  # medians over rounds of $OUT/results.txt and the C++ / Python ratios
  $PY - "$B" "$OUT/results.txt" <<'PYEOF'
import statistics, sys
b, rows = int(sys.argv[1]), [l.split() for l in open(sys.argv[2]) if l.strip()]
def med(side, col):
    return statistics.median(b / float(r[col]) for r in rows if r[0] == side)
for label, col in (("B / mean step (ips, the figure)", 3), ("B / median step", 4), ("B / fastest-quarter step", 5)):
    c, p = med("cpp", col), med("py", col)
    line = f"median over rounds, samples/s, {label}: C++ {c:.3f}, Python {p:.3f}, ratio C++/Python {c / p:.3f}"
    if any(r[0] == "pynhwc" for r in rows):
        q = med("pynhwc", col)
        line += f"; Python NHWC {q:.3f}, ratio C++/Python NHWC {c / q:.3f}"
    print(line)
PYEOF
}
