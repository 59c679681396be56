#!/bin/sh
# Runs each libFuzzer harness for FUZZ_SECONDS (default 60) from its seed corpus (written by
# the harness's seed program) and its growing corpus in build/fuzz, and prints one line per
# harness: executions, executions per second, coverage, corpus size, and whether it crashed.
# Exit status 1 if any harness crashed; the crashing input is kept in build/fuzz/crash-<name>-*
# and printed in hex.
# FUZZ_SEED (default 1) seeds libFuzzer's mutations, but runs with one seed still differ: parts
# of libFuzzer go by the clock (the corpus is read again every second). Twelve 60 s runs of
# seed 1 from a clean checkout made corpora of 539 to 587 inputs, and a crash CI found after
# 608 787 runs did not come back in 5.5 million here. Hence the hex dump of a crashing input.
# Usage: tests/fuzz/run.sh build_dir name...
build=$1; shift
seconds=${FUZZ_SECONDS:-60}
seed=${FUZZ_SEED:-1}
status=0
for name in "$@"; do
    dir="$build/fuzz"
    mkdir -p "$dir/corpus_$name" "$dir/seed_corpus_$name"
    "$dir/seeds_$name" "$dir/seed_corpus_$name" || { echo "fuzz $name: seed program failed"; status=1; continue; }
    log="$dir/log_$name.txt"
    "$dir/fuzz_$name" -max_total_time="$seconds" -seed="$seed" -print_final_stats=1 -timeout=20 -rss_limit_mb=2048 \
        -artifact_prefix="$dir/crash-$name-" "$dir/corpus_$name" "$dir/seed_corpus_$name" > "$log" 2>&1
    code=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)
    corpus=$(ls "$dir/corpus_$name" | wc -l)
    if [ "$code" = 0 ]; then
        echo "fuzz $name: ${seconds} s, seed $seed, ${execs:-?} runs, ${rate:-?} runs/s, $cov, corpus $corpus, no crash"
    else
        echo "fuzz $name: CRASH (exit $code) after ${execs:-?} runs, seed $seed; log $log"
        grep -E 'ERROR|fuzz_|SUMMARY|Test unit written' "$log" | head -n 20
        # the input itself, in hex, for a log read elsewhere (CI keeps no files): turn it back
        # into the file with `xxd -r -p` and replay it with the harness (FUZZ_VERBOSE=1)
        for crash in "$dir/crash-$name-"*; do
            [ -f "$crash" ] || continue
            echo "input $(basename "$crash") ($(wc -c < "$crash") bytes, hex):"
            od -An -v -tx1 "$crash" | tr -d ' \n' | fold -w 96
            echo
        done
        status=1
    fi
done
exit $status
