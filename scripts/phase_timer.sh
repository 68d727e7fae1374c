# Sourced by the build and test scripts: `phase NAME COMMAND...` runs COMMAND and, with
# LYNXSIM_TIMINGS=1 in the environment, prints on stderr how long it took: wall-clock seconds and
# the CPU seconds (user + system) of the processes it waited for, e.g.
#   lynxsim timing: build           wall   95.2 s   cpu  181.0 s
# so `LYNXSIM_TIMINGS=1 ./scripts/quickstart.sh` and `LYNXSIM_TIMINGS=1 ./scripts/test.sh` print
# where their time goes, phase by phase.

# The CPU seconds of this shell's waited-for children so far (the builtin `times`, second line).
phase_cpu_seconds() {
  local file
  file=$(mktemp)
  times >"$file"
  awk 'function sec(t) { split(t, p, "m"); return p[1] * 60 + p[2] }
    NR == 2 { printf "%.1f", sec($1) + sec($2) }' "$file"
  rm -f "$file"
}

phase() {
  local name=$1
  shift
  if [[ "${LYNXSIM_TIMINGS:-0}" != 1 ]]; then
    "$@"
    return
  fi
  local start cpu_start status=0
  start=$(date +%s.%N)
  phase_cpu_seconds >"${TMPDIR:-/tmp}/lynxsim-phase-$$"
  "$@" || status=$?
  cpu_start=$(cat "${TMPDIR:-/tmp}/lynxsim-phase-$$")
  phase_cpu_seconds >"${TMPDIR:-/tmp}/lynxsim-phase-$$"
  awk -v n="$name" -v w0="$start" -v w1="$(date +%s.%N)" -v c0="$cpu_start" \
    -v c1="$(cat "${TMPDIR:-/tmp}/lynxsim-phase-$$")" \
    'BEGIN { printf "lynxsim timing: %-14s  wall %7.1f s   cpu %7.1f s\n", n, w1 - w0, c1 - c0 }' >&2
  rm -f "${TMPDIR:-/tmp}/lynxsim-phase-$$"
  return "$status"
}
