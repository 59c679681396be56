#!/bin/sh
# Runs each determinism program given (tests/programs/determinism.c built by different compilers)
# and checks that all the builds of one precision print the same hashes. Each program also
# checks itself (run after run, world destroyed and built again). Prints one line per compared
# hash and "N passed, N failed" last, like the test programs.
# Usage: determinism_compare.sh [--args "long"] program[:argument]...
# (--args goes to every program; program:argument to that one only)
args=""
if [ "$1" = "--args" ]; then args="$2"; shift 2; fi
passed=0; failed=0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
for entry in "$@"; do
    program=${entry%%:*}
    own=""
    case $entry in *:*) own=${entry#*:} ;; esac
    # shellcheck disable=SC2086
    "$program" $args $own > "$tmp/out" 2>&1; code=$?
    p=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$tmp/out")
    f=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$tmp/out")
    if [ -z "$p" ]; then p=0; f=1; echo "  $program ended without a summary (exit $code)"; cat "$tmp/out"; fi
    if [ "$code" != 0 ] && [ "$f" = 0 ]; then f=1; echo "  $program exited with $code"; fi
    grep '^FAIL' "$tmp/out" | sed "s|^|  $program: |"
    passed=$((passed + p)); failed=$((failed + f))
    # hash <scene> <precision> <value>
    grep '^hash ' "$tmp/out" | while read -r _ scene precision value; do
        echo "$precision $scene $value $program"
    done >> "$tmp/hashes"
done
# the first program of each precision is the reference for that precision
while read -r precision scene value program; do
    ref=$(grep "^$precision $scene " "$tmp/hashes" | head -n 1)
    ref_value=$(echo "$ref" | cut -d' ' -f3); ref_program=$(echo "$ref" | cut -d' ' -f4)
    if [ "$program" = "$ref_program" ]; then continue; fi
    if [ "$value" = "$ref_value" ]; then
        echo "ok   $scene $precision $value: $program = $ref_program"
    else
        echo "FAIL $scene $precision: $program $value, $ref_program $ref_value"
    fi
done < "$tmp/hashes" > "$tmp/compare"
cat "$tmp/compare"
# one line per scene and precision: the hash and how many builds printed it
cut -d' ' -f1,2 "$tmp/hashes" | sort -u | while read -r precision scene; do
    builds=$(grep -c "^$precision $scene " "$tmp/hashes")
    values=$(grep "^$precision $scene " "$tmp/hashes" | cut -d' ' -f3 | sort -u | tr '\n' ' ')
    echo "  $scene $precision: $values($builds builds)"
done
passed=$((passed + $(grep -c '^ok ' "$tmp/compare")))
failed=$((failed + $(grep -c '^FAIL' "$tmp/compare")))
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
