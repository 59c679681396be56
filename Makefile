# rigid.h build: `make run` runs the demo, `make test` builds and runs every test with every
# compiler, `make help` lists the targets. Determinism needs -ffp-contract=off (gcc ignores
# #pragma STDC FP_CONTRACT).

CC       = gcc
CXX      = g++
STB      = /usr/include/stb
BUILD    = build
OPT      = -O2 -g
DETERMINISM = -ffp-contract=off
CWARN    = -std=c99 -Wall -Wextra -pedantic -Werror
CXXWARN  = -std=c++11 -Wall -Wextra -pedantic -Werror
INCLUDES = -I. -I$(STB)
# Until rigid.h defines its mesh accessors (rg_mesh_vertex_count, ...: the mesh module),
# examples/record.h and examples/snapshot.h leave meshes out so that their programs link;
# tools/check_tools.c then brings stand-ins to test the mesh paths. Goes with the module's merge.
CFLAGS   = $(OPT) $(DETERMINISM) $(CWARN) $(INCLUDES)
LDLIBS   = -lm
# tests/test_threads.c and tools/bench_scenes.c lend rigid.h threads from tools/tasks.h's pool
THREAD_LDLIBS = $(LDLIBS) -lpthread
SANITIZE = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

TEST_SOURCES = tests/main.c $(wildcard tests/test_*.c)
TEST_HEADERS = rigid.h tests/test.h $(wildcard tests/*.h) tools/random.h tools/terrain.h tools/tasks.h tests/programs/state_hash.h
EXAMPLES     = $(patsubst examples/%.c,$(BUILD)/%,$(wildcard examples/*.c))

# tcc 0.9.27 (Debian, x86-64) overwrites 4 bytes of the caller's stack after a call returning a
# 12-byte struct; rigid.h works around it (RIGID__VEC3_ALIGN), tests/programs/tcc_struct_args.c
# shows the bug and checks the workaround.
TEST_BINARIES = $(BUILD)/tests_gcc $(BUILD)/tests_gcc_double $(BUILD)/tests_clang \
                $(BUILD)/tests_cpp $(BUILD)/tests_tcc $(BUILD)/tcc_struct_args \
                $(BUILD)/overrides $(BUILD)/static_twice $(BUILD)/no_stb_ds $(BUILD)/check_tools
COMPILE_ONLY  = $(BUILD)/readme_example

# Determinism: tests/programs/determinism.c built by each compiler; the check compares their hashes.
# In `make test` tcc's build (7 times slower, unoptimised) runs each scene once.
DETERMINISM_TEST = $(BUILD)/determinism_gcc $(BUILD)/determinism_clang $(BUILD)/determinism_tcc \
                   $(BUILD)/determinism_gcc_double $(BUILD)/determinism_clang_double
DETERMINISM_ALL  = $(DETERMINISM_TEST) $(BUILD)/determinism_cpp $(BUILD)/determinism_tcc_double
TEST_BINARIES += $(BUILD)/determinism_check $(BUILD)/steady_alloc

.PHONY: all test run bench bench-peers bench-readme bench-box3d bench-deps test-replay pictures sanitize examples deps clean \
        soak fuzz determinism

all: $(TEST_BINARIES) examples

# `make help`: one line per target, kept by hand; it fails if a .PHONY target has no line.
define HELP_TEXT
  all            the test programs and the examples (the default)
  test           build and run every test program with every compiler, determinism check included
  programs       build every program (tests, examples, tools, benchmarks, fuzz harnesses), run none
  sanitize       the tests under AddressSanitizer and UBSan, valgrind memcheck of the examples
  determinism    every compiler's build on the long scenes, hashes compared
  soak           SOAK_STEPS (1 000 000) steps of a mixed scene, allocations counted
  fuzz           each libFuzzer harness for FUZZ_SECONDS (60) from FUZZ_SEED (1)
  examples       build the example programs
  run            build and run the demo (its replay page goes to build/)
  pictures       the README's pictures, drawn into docs/
  bench          build and run every tools/bench_*.c, then bench-peers
  bench-peers    rigid.h, Bullet and ODE side by side (BENCH_ARGS passes options)
  bench-readme   the peer bench pasted into README.md's Performance section (about 15 minutes)
  bench-box3d    rigid.h and Box3D side by side; needs BOX3D_DIR, a Box3D checkout built by its CMake
  bench-deps     install Bullet and ODE (tools/ensure-deps bench; installs as root)
  test-replay    the replay page checked in headless Chromium (tools/ensure-deps replay)
  deps           install the compilers and libraries of the build (tools/ensure-deps)
  clean          remove $(BUILD)
  help           this list
endef
export HELP_TEXT

.PHONY: help
help:
	@printf 'make [target], targets:\n%s\n' "$$HELP_TEXT"
	@missing=""; for t in $$(awk '/^\.PHONY:/ { on = 1; sub(/^\.PHONY:/, "") } \
	    on { more = sub(/\\$$/, ""); print; if (!more) on = 0 }' $(firstword $(MAKEFILE_LIST))); do \
	    printf '%s\n' "$$HELP_TEXT" | grep -q "^  $$t " || missing="$$missing $$t"; done; \
	    if [ -n "$$missing" ]; then echo "make help: no line for:$$missing" >&2; exit 1; fi

deps:
	@tools/ensure-deps

$(BUILD):
	@mkdir -p $(BUILD)

$(BUILD)/tests_gcc: $(TEST_SOURCES) $(TEST_HEADERS) | $(BUILD)
	$(CC) $(CFLAGS) $(TEST_SOURCES) -o $@ $(THREAD_LDLIBS)

$(BUILD)/tests_gcc_double: $(TEST_SOURCES) $(TEST_HEADERS) | $(BUILD)
	$(CC) $(CFLAGS) -DRIGID_DOUBLE $(TEST_SOURCES) -o $@ $(THREAD_LDLIBS)

$(BUILD)/tests_clang: $(TEST_SOURCES) $(TEST_HEADERS) | $(BUILD)
	clang $(CFLAGS) $(TEST_SOURCES) -o $@ $(THREAD_LDLIBS)

$(BUILD)/tests_tcc: $(TEST_SOURCES) $(TEST_HEADERS) | $(BUILD)
	tcc -Wall -Werror $(INCLUDES) $(TEST_SOURCES) -o $@ $(THREAD_LDLIBS)

$(BUILD)/tests_cpp: $(TEST_SOURCES) $(TEST_HEADERS) | $(BUILD)
	$(CXX) $(OPT) $(DETERMINISM) $(CXXWARN) $(INCLUDES) -x c++ $(TEST_SOURCES) -o $@ $(THREAD_LDLIBS)

$(BUILD)/tests_sanitize: $(TEST_SOURCES) $(TEST_HEADERS) | $(BUILD)
	clang -O1 -g $(DETERMINISM) $(CWARN) $(INCLUDES) $(SANITIZE) $(TEST_SOURCES) -o $@ $(THREAD_LDLIBS)

$(BUILD)/tests_sanitize_double: $(TEST_SOURCES) $(TEST_HEADERS) | $(BUILD)
	clang -O1 -g $(DETERMINISM) $(CWARN) $(INCLUDES) $(SANITIZE) -DRIGID_DOUBLE $(TEST_SOURCES) -o $@ $(THREAD_LDLIBS)

$(BUILD)/tcc_struct_args: tests/programs/tcc_struct_args.c rigid.h | $(BUILD)
	tcc -Wall -Werror $(INCLUDES) $< -o $@ $(LDLIBS)

DETERMINISM_SOURCES = tests/programs/determinism.c rigid.h examples/scenes.h tools/random.h tests/programs/state_hash.h

$(BUILD)/determinism_gcc: $(DETERMINISM_SOURCES) | $(BUILD)
	$(CC) $(CFLAGS) $< -o $@ $(LDLIBS)

$(BUILD)/determinism_gcc_double: $(DETERMINISM_SOURCES) | $(BUILD)
	$(CC) $(CFLAGS) -DRIGID_DOUBLE $< -o $@ $(LDLIBS)

$(BUILD)/determinism_clang: $(DETERMINISM_SOURCES) | $(BUILD)
	clang $(CFLAGS) $< -o $@ $(LDLIBS)

$(BUILD)/determinism_clang_double: $(DETERMINISM_SOURCES) | $(BUILD)
	clang $(CFLAGS) -DRIGID_DOUBLE $< -o $@ $(LDLIBS)

$(BUILD)/determinism_cpp: $(DETERMINISM_SOURCES) | $(BUILD)
	$(CXX) $(OPT) $(DETERMINISM) $(CXXWARN) $(INCLUDES) -x c++ $< -o $@ $(LDLIBS)

$(BUILD)/determinism_tcc: $(DETERMINISM_SOURCES) | $(BUILD)
	tcc -Wall -Werror $(INCLUDES) $< -o $@ $(LDLIBS)

$(BUILD)/determinism_tcc_double: $(DETERMINISM_SOURCES) | $(BUILD)
	tcc -Wall -Werror $(INCLUDES) -DRIGID_DOUBLE $< -o $@ $(LDLIBS)

# a script for tools/run-tests: compares the hashes of the builds above
$(BUILD)/determinism_check: tests/programs/determinism_compare.sh $(DETERMINISM_TEST) | $(BUILD)
	printf '#!/bin/sh\nexec sh tests/programs/determinism_compare.sh %s\n' "$(subst determinism_tcc,determinism_tcc:once,$(DETERMINISM_TEST))" > $@
	chmod +x $@

# zero allocations in steady state, counted through the allocator hooks
$(BUILD)/steady_alloc: tests/programs/steady_alloc.c tests/programs/counting_allocator.h rigid.h examples/scenes.h tools/random.h | $(BUILD)
	$(CC) $(CFLAGS) $< -o $@ $(LDLIBS)

$(BUILD)/steady_alloc_double: tests/programs/steady_alloc.c tests/programs/counting_allocator.h rigid.h examples/scenes.h tools/random.h | $(BUILD)
	$(CC) $(CFLAGS) -DRIGID_DOUBLE $< -o $@ $(LDLIBS)

# `make determinism`: every build, the long scenes (the full rain, 600 steps)
determinism: deps $(DETERMINISM_ALL)
	@sh tests/programs/determinism_compare.sh --args long $(DETERMINISM_ALL)

# `make soak`: SOAK_STEPS (1 000 000) steps of the mixed scene of tests/programs/soak.c
SOAK_STEPS ?= 1000000

$(BUILD)/soak: tests/programs/soak.c tests/programs/counting_allocator.h rigid.h tools/random.h | $(BUILD)
	$(CC) $(CFLAGS) $< -o $@ $(LDLIBS)

soak: deps $(BUILD)/soak
	@$(BUILD)/soak $(SOAK_STEPS)

# libFuzzer harnesses (tests/fuzz): `make fuzz` runs each for FUZZ_SECONDS from FUZZ_SEED;
# tests/fuzz/run.sh prints runs, runs per second and crashes. The seed programs write the seed
# corpora.
FUZZ_SECONDS ?= 60
FUZZ_SEED    ?= 1
FUZZERS      = hull collide shapes world
FUZZ_CFLAGS  = -O1 -g $(DETERMINISM) $(CWARN) $(INCLUDES) -fno-omit-frame-pointer
FUZZ_DEPS    = rigid.h tests/fuzz/fuzz_common.h tests/programs/counting_allocator.h tests/programs/state_hash.h

$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_DEPS) | $(BUILD)
	@mkdir -p $(BUILD)/fuzz
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all $< -o $@ $(LDLIBS)

$(BUILD)/fuzz/seeds_%: tests/fuzz/fuzz_%.c $(FUZZ_DEPS) | $(BUILD)
	@mkdir -p $(BUILD)/fuzz
	clang $(FUZZ_CFLAGS) -DFUZZ_SEED_MAIN $< -o $@ $(LDLIBS)

fuzz: deps $(foreach f,$(FUZZERS),$(BUILD)/fuzz/fuzz_$(f) $(BUILD)/fuzz/seeds_$(f))
	@FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_SEED=$(FUZZ_SEED) sh tests/fuzz/run.sh $(BUILD) $(FUZZERS)

# configuration macros: custom allocator and assert, RIGID_STATIC included twice
$(BUILD)/overrides: tests/programs/overrides.c rigid.h | $(BUILD)
	$(CC) $(CFLAGS) $< -o $@ $(LDLIBS)

$(BUILD)/static_twice: tests/programs/static_a.c tests/programs/static_b.c rigid.h | $(BUILD)
	$(CC) $(CFLAGS) tests/programs/static_a.c tests/programs/static_b.c -o $@ $(LDLIBS)

# a program that compiles stb_ds itself, with short names turned off
$(BUILD)/no_stb_ds: tests/programs/own_stb_ds.c tests/programs/uses_rigid.c rigid.h | $(BUILD)
	$(CC) $(CFLAGS) tests/programs/own_stb_ds.c tests/programs/uses_rigid.c -o $@ $(LDLIBS)

# the README's usage example, cut out of README.md, must compile and run
$(BUILD)/readme_example.c: README.md | $(BUILD)
	awk '/<!-- example -->/{getline; on=1; next} on && /^```/{on=0} on' README.md > $@

$(BUILD)/readme_example: $(BUILD)/readme_example.c rigid.h
	$(CC) $(CFLAGS) -Wno-unused-parameter $< -o $@ $(LDLIBS)

test: deps
	@$(MAKE) --no-print-directory $(TEST_BINARIES) $(COMPILE_ONLY)
	@$(BUILD)/readme_example > /dev/null
	@tools/run-tests $(TEST_BINARIES)

# valgrind memcheck of every example (their first second: --steps 60) and of the determinism
# scenes (once each): uninitialised memory, which AddressSanitizer does not see, and leaks
VALGRIND_PROGRAMS = $(EXAMPLES) $(BUILD)/determinism_gcc

$(BUILD)/valgrind_check: tests/programs/valgrind.sh $(VALGRIND_PROGRAMS) | $(BUILD)
	printf '#!/bin/sh\nVALGRIND_ARGS="--steps 60" exec sh tests/programs/valgrind.sh %s\n' "$(EXAMPLES) $(BUILD)/determinism_gcc:once" > $@
	chmod +x $@

sanitize: deps
	@$(MAKE) --no-print-directory $(BUILD)/tests_sanitize $(BUILD)/tests_sanitize_double $(BUILD)/valgrind_check
	@tools/run-tests $(BUILD)/tests_sanitize $(BUILD)/tests_sanitize_double $(BUILD)/valgrind_check

# tools/replay: a recording to one self-contained HTML page. The page is tools/replay_page.html,
# turned into C string lines here for tools/replay.h (the demo writes a page too).
$(BUILD)/replay_page.inc: tools/replay_page.html | $(BUILD)
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/?/\\?/g' -e 's/^/"/' -e 's/$$/\\n",/' $< > $@

$(BUILD)/replay: tools/replay.c tools/replay.h examples/record.h examples/snapshot.h $(BUILD)/replay_page.inc | $(BUILD)
	$(CC) $(CFLAGS) -I$(BUILD) $< -o $@ $(LDLIBS)

# the recording format and the snapshot rasteriser, checked in `make test` (fast)
$(BUILD)/check_tools: tools/check_tools.c examples/record.h examples/snapshot.h tools/plot.h tools/random.h rigid.h | $(BUILD)
	$(CC) $(CFLAGS) $< -o $@ $(LDLIBS)

# The replay page in headless Chromium (not part of `make test`: CI machines may lack a browser):
# a recording with made-up contacts is written and read back, turned into a page, and the page
# is loaded, looked at, played, paused and stepped. Screenshots go to build/replay_screens.
test-replay:
	@tools/ensure-deps replay
	@$(MAKE) --no-print-directory $(BUILD)/replay $(BUILD)/check_tools
	$(BUILD)/check_tools $(BUILD)/replay_fixture.rgrec
	$(BUILD)/replay $(BUILD)/replay_fixture.rgrec $(BUILD)/replay_fixture.html --title "make test-replay"
	node tools/test-replay.js $(BUILD)/replay_fixture.html $(BUILD)/replay_screens

$(BUILD)/demo: examples/demo.c rigid.h $(wildcard examples/*.h) tools/random.h tools/replay.h $(BUILD)/replay_page.inc | $(BUILD)
	$(CC) $(CFLAGS) -I$(BUILD) $< -o $@ $(LDLIBS)

$(BUILD)/%: examples/%.c rigid.h $(wildcard examples/*.h) tools/random.h | $(BUILD)
	$(CC) $(CFLAGS) $< -o $@ $(LDLIBS)

examples: $(EXAMPLES)

run: deps $(BUILD)/demo
	$(BUILD)/demo --out $(BUILD)

# the README's pictures: the pyramid and the funnel after 10 s, drawn by examples/snapshot.h
# into docs/ (committed; README.md shows them)
pictures: deps $(BUILD)/pyramid $(BUILD)/funnel
	@mkdir -p docs
	$(BUILD)/pyramid --snapshot docs/pyramid.png
	$(BUILD)/funnel --snapshot docs/funnel.png

# every tools/bench_*.c is a benchmark program; `make bench` runs them all. Timings are printed,
# never asserted.
BENCHES = $(patsubst tools/%.c,$(BUILD)/%,$(wildcard tools/bench_*.c))

bench: deps $(BENCHES)
	@for b in $(BENCHES); do echo "== $$b"; $$b || exit 1; done
	@$(MAKE) --no-print-directory bench-peers

# tools/bench: every scene in rigid.h, Bullet and ODE side by side, and the scaling plot. The
# peers come from Debian's libbullet-dev and libode-dev (tools/ensure-deps bench installs them).
# BENCH_ARGS passes options, e.g. make bench-peers BENCH_ARGS="--scenes stack,pyramid --no-scaling".
PEER_OBJECTS = $(BUILD)/bench.o $(BUILD)/bullet_scenes.o $(BUILD)/ode_scenes.o
PEER_LIBS    = -lBulletDynamics -lBulletCollision -lLinearMath -lode -lm

bench-deps:
	@tools/ensure-deps bench

bench-peers: bench-deps
	@$(MAKE) --no-print-directory $(BUILD)/bench
	$(BUILD)/bench $(BENCH_ARGS)

# README.md's Performance section: the peer bench with its markdown tables, pasted by
# tools/bench-readme between <!-- bench:begin --> and <!-- bench:end -->, and the scaling plot
# copied to docs/bench_scaling.png. About 15 minutes on 2 cores.
bench-readme: bench-deps
	@$(MAKE) --no-print-directory $(BUILD)/bench
	CC="$(CC)" CXX="$(CXX)" tools/bench-readme $(BUILD)/bench "$(OPT) $(DETERMINISM) -DNDEBUG" $(BENCH_ARGS)

$(BUILD)/bench.o: tools/bench.c tools/plot.h tools/peers/peers.h examples/scenes.h tools/random.h examples/snapshot.h rigid.h | $(BUILD)
	$(CC) $(CFLAGS) -D_POSIX_C_SOURCE=200809L -DNDEBUG -c $< -o $@

$(BUILD)/ode_scenes.o: tools/peers/ode_scenes.c tools/peers/peers.h examples/scenes.h tools/random.h | $(BUILD)
	$(CC) $(CFLAGS) -D_POSIX_C_SOURCE=200809L -DNDEBUG -c $< -o $@

$(BUILD)/bullet_scenes.o: tools/peers/bullet_scenes.cpp tools/peers/peers.h examples/scenes.h tools/random.h | $(BUILD)
	$(CXX) $(OPT) $(CXXWARN) $(INCLUDES) -isystem /usr/include/bullet -DNDEBUG -c $< -o $@

$(BUILD)/bench: $(PEER_OBJECTS)
	$(CXX) $(PEER_OBJECTS) -o $@ $(PEER_LIBS)

# `make bench-box3d BOX3D_DIR=...`: rigid.h against Box3D (Erin Catto's 3D engine) in one process,
# stepped in turns, the direct ratio (tools/bench.c built with BENCH_BOX3D and
# tools/peers/box3d_scenes.c). Box3D is no part of the repository and CI neither has nor builds
# it: BOX3D_DIR is a checkout whose library its own CMake built in release mode into
# $(BOX3D_DIR)/build (BOX3D_LIB names another place). Bullet and ODE are linked too, so that
# BENCH_ARGS="--engines rigid,bullet,ode,box3d" can add them.
BOX3D_LIB     ?= $(BOX3D_DIR)/build/src/libbox3d.a
BOX3D_OBJECTS = $(BUILD)/box3d/bench.o $(BUILD)/box3d/box3d_scenes.o $(BUILD)/bullet_scenes.o $(BUILD)/ode_scenes.o
BOX3D_BUILD   = cmake -S $(BOX3D_DIR) -B $(BOX3D_DIR)/build -DCMAKE_BUILD_TYPE=Release -DBOX3D_SAMPLES=OFF \
                -DBOX3D_UNIT_TESTS=OFF && cmake --build $(BOX3D_DIR)/build

bench-box3d: bench-deps
	@if [ -z "$(BOX3D_DIR)" ]; then \
	    echo "make bench-box3d: set BOX3D_DIR to a Box3D checkout (git clone https://github.com/erincatto/box3d)," \
	         "e.g. make bench-box3d BOX3D_DIR=../box3d" >&2; exit 2; fi
	@if [ ! -d "$(BOX3D_DIR)/include/box3d" ]; then \
	    echo "make bench-box3d: $(BOX3D_DIR)/include/box3d is missing: BOX3D_DIR must be a Box3D checkout" >&2; exit 2; fi
	@if [ ! -f "$(BOX3D_LIB)" ]; then \
	    echo "make bench-box3d: $(BOX3D_LIB) is missing: build Box3D first, $(BOX3D_BUILD)" >&2; exit 2; fi
	@$(MAKE) --no-print-directory $(BUILD)/box3d/bench
	$(BUILD)/box3d/bench $(BENCH_ARGS)

$(BUILD)/box3d/bench.o: tools/bench.c tools/plot.h tools/peers/peers.h examples/scenes.h tools/random.h rigid.h | $(BUILD)
	@mkdir -p $(BUILD)/box3d
	$(CC) $(CFLAGS) -D_POSIX_C_SOURCE=200809L -DNDEBUG -DBENCH_BOX3D -c $< -o $@

# C11: Box3D's headers have anonymous unions
$(BUILD)/box3d/box3d_scenes.o: tools/peers/box3d_scenes.c tools/peers/peers.h examples/scenes.h tools/random.h \
                               $(BOX3D_DIR)/include/box3d/box3d.h | $(BUILD)
	@mkdir -p $(BUILD)/box3d
	$(CC) $(OPT) $(DETERMINISM) -std=c11 -Wall -Wextra -pedantic -Werror $(INCLUDES) -isystem $(BOX3D_DIR)/include -D_POSIX_C_SOURCE=200809L \
	    -DNDEBUG -c $< -o $@

$(BUILD)/box3d/bench: $(BOX3D_OBJECTS) $(BOX3D_LIB)
	$(CXX) $(BOX3D_OBJECTS) $(BOX3D_LIB) -o $@ $(PEER_LIBS) -lpthread

$(BUILD)/bench_%: tools/bench_%.c rigid.h $(wildcard tools/*.h) $(wildcard examples/*.h) | $(BUILD)
	$(CC) $(CFLAGS) -D_POSIX_C_SOURCE=200809L -DNDEBUG $< -o $@ $(THREAD_LDLIBS)

# `make programs`: every program of the repository built and none run (the soak, the benchmarks
# and the fuzzers run for long), so that a change that breaks one shows in CI. The peer bench
# needs Bullet and ODE (bench-deps installs them as root), the fuzz harnesses clang's libFuzzer.
PROGRAMS = $(TEST_BINARIES) $(COMPILE_ONLY) $(BUILD)/tests_sanitize $(BUILD)/tests_sanitize_double \
           $(BUILD)/valgrind_check $(DETERMINISM_ALL) $(BUILD)/steady_alloc_double $(BUILD)/soak \
           $(EXAMPLES) $(BUILD)/replay $(BENCHES) $(BUILD)/bench \
           $(foreach f,$(FUZZERS),$(BUILD)/fuzz/seeds_$(f) $(BUILD)/fuzz/fuzz_$(f))

.PHONY: programs
programs: deps bench-deps
	@$(MAKE) --no-print-directory $(PROGRAMS)

clean:
	rm -rf $(BUILD)
