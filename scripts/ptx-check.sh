#!/usr/bin/env bash
# The nvidia plugin's ahead-of-time check (issue 13, "Done when"): every
# module the cpu plugin runs in the tree (the .hlo and .mlir files of
# samples/models, benchmarks/models, core/compiler/testdata and
# core/frontend/testdata) compiles with `polyhal compile --plugin nvidia`
# for sm_80 and for sm_90, each kernel's PTX dumped with --dump-dir, and
# ptxas accepts every dumped PTX file for its architecture.
#
#   scripts/ptx-check.sh POLYHAL [WORK_DIR]
#
# CTest runs it as ptx_check_nvidia (plugins/nvidia/CMakeLists.txt). Exit
# status: 0 when every module compiled and ptxas accepted every file; 1
# naming each module that did not compile and each file ptxas refused
# (their logs are beside them in WORK_DIR); 77, CTest's skip, when every
# module compiled but ptxas is not installed ($PTXAS,
# /usr/local/cuda/bin/ptxas or PATH). Identical PTX files (the same kernel
# in several modules) are assembled once.
set -uo pipefail

polyhal=${1:?usage: ptx-check.sh POLYHAL [WORK_DIR]}
root=$(cd "$(dirname "$0")/.." && pwd)
work=${2:-$(mktemp -d)}
targets=(sm_80 sm_90)
jobs=2
started=$SECONDS

# ptxas, or nothing when it is not installed (or $PTXAS names no program).
find_ptxas() {
  if [ -n "${PTXAS:-}" ]; then
    if [ -x "$PTXAS" ]; then echo "$PTXAS"; fi
  elif [ -x /usr/local/cuda/bin/ptxas ]; then
    echo /usr/local/cuda/bin/ptxas
  else
    command -v ptxas || true
  fi
}

# compile_module POLYHAL TARGET_DIR TARGET MODULE: the serialized executable
# and the dump directory are TARGET_DIR/<module path with / as __>.{phx,ptx};
# prints the module's name when it does not compile.
compile_module() {
  local out="$2/${4//\//__}"
  if ! "$1" compile "$root/$4" --plugin nvidia --target "$3" \
    --output "$out.phx" --dump-dir "$out.ptx" >"$out.log" 2>&1; then
    echo "$4"
  fi
}
export -f compile_module
export root

mapfile -t modules < <(cd "$root" && find samples/models benchmarks/models \
  core/compiler/testdata core/frontend/testdata -type f \
  \( -name '*.hlo' -o -name '*.mlir' \) | sort)
if [ "${#modules[@]}" -eq 0 ]; then
  echo "ptx-check: no module found under $root" >&2
  exit 1
fi

ptxas=$(find_ptxas)
failed=0
kernels=0
distinct=0
for target in "${targets[@]}"; do
  rm -rf "${work:?}/$target"
  mkdir -p "$work/$target"
  printf '%s\n' "${modules[@]}" |
    xargs -P "$jobs" -I{} bash -c 'compile_module "$@"' _ \
      "$polyhal" "$work/$target" "$target" {} >"$work/$target.uncompiled"
  while read -r module; do
    echo "FAILED to compile for $target: $module" \
      "($work/$target/${module//\//__}.log):"
    sed 's/^/    /' "$work/$target/${module//\//__}.log"
    failed=$((failed + 1))
  done <"$work/$target.uncompiled"

  find "$work/$target" -name '*.ptx' -type f | sort >"$work/$target.files"
  kernels=$((kernels + $(wc -l <"$work/$target.files")))
  [ -n "$ptxas" ] || continue
  # One file of each distinct content, so a kernel shared by many modules
  # is assembled once per architecture.
  xargs -r sha1sum <"$work/$target.files" | sort -k1,1 -s |
    awk '!seen[$1]++ { print $2 }' >"$work/$target.distinct"
  distinct=$((distinct + $(wc -l <"$work/$target.distinct")))
  xargs -r -P "$jobs" -I{} sh -c \
    '"$0" -arch="$1" "$2" -o /dev/null >"$2.ptxas.log" 2>&1 || echo "$2"' \
    "$ptxas" "$target" {} <"$work/$target.distinct" >"$work/$target.refused"
  while read -r file; do
    echo "ptxas -arch=$target REFUSED $file:"
    if [ -s "$file.ptxas.log" ]; then
      sed 's/^/    /' "$file.ptxas.log"
    else
      echo "    (ptxas failed without a message)"
    fi
    failed=$((failed + 1))
  done <"$work/$target.refused"
done

summary="${#modules[@]} modules x ${#targets[@]} targets (${targets[*]}),"
summary+=" $kernels PTX files"
if [ -n "$ptxas" ]; then
  version=$("$ptxas" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')
  summary+=" ($distinct distinct) through ptxas $version"
else
  summary+=", ptxas SKIPPED (not installed: set PTXAS or install the CUDA toolkit)"
fi
summary+=", $failed failures, $((SECONDS - started)) s; files in $work"
echo "ptx-check: $summary"
if [ "$failed" -gt 0 ]; then exit 1; fi
if [ -z "$ptxas" ]; then exit 77; fi
exit 0
