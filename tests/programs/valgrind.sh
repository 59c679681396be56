#!/bin/sh
# Runs each program given under valgrind memcheck: any error (invalid read or write, use of
# uninitialised memory, bad free) or any leak (of any kind, still-reachable included) fails it.
# Prints one line per program and "N passed, N failed" last, like the test programs.
# A program that runs longer than VALGRIND_TIMEOUT seconds (default 900) fails too. Each runs
# in a scratch directory (the examples write their recordings and pictures there) with the
# arguments in VALGRIND_ARGS (`make sanitize` shortens the examples with --steps), or those
# given as program:arguments.
passed=0; failed=0
timeout_s=${VALGRIND_TIMEOUT:-900}
scratch=$(mktemp -d) || exit 1
trap 'rm -rf "$scratch"' EXIT
for entry in "$@"; do
    # program, or program:arguments (then VALGRIND_ARGS is not used for it)
    program=${entry%%:*}
    args=$VALGRIND_ARGS
    case $entry in *:*) args=${entry#*:} ;; esac
    log="$scratch/valgrind.log"
    case $program in /*) path=$program ;; *) path=$(pwd)/$program ;; esac
    # shellcheck disable=SC2086
    (cd "$scratch" && timeout "$timeout_s" valgrind -q --error-exitcode=99 --leak-check=full \
        --show-leak-kinds=all --errors-for-leak-kinds=all "$path" $args > /dev/null 2> "$log")
    code=$?
    if [ "$code" = 0 ]; then
        echo "ok   valgrind $program"
        passed=$((passed + 1))
    else
        case $code in
            99) why="memcheck errors or leaks" ;;
            124) why="timed out after $timeout_s s" ;;
            *) why="exit $code" ;;
        esac
        echo "FAIL valgrind $program: $why"
        head -n 40 "$log" | sed 's/^/  /'
        failed=$((failed + 1))
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
