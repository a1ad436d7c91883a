# Fuzzing of the data-file parser (libpmufile).
#
#   make fuzz-pmufile [FUZZ_TIME=60]   build with clang -fsanitize=fuzzer,
#        address,undefined and fuzz for FUZZ_TIME seconds, seeded from the
#        saved corpus tests/fuzz/corpus/pmufile (new inputs go to
#        $(BUILD)/fuzz/corpus-pmufile; copy keepers back by hand)
#   $(BUILD)/tests/fuzz/replay_pmufile  the same target with a main() that
#        replays files, built with gcc -fsanitize=address,undefined; run by
#        tests/suites/fuzz_replay_pmufile.sh (part of `make check`)
FUZZ_TIME ?= 60
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
PMUFILE_FUZZ_SRCS := tests/fuzz/fuzz_pmufile.c $(PMUFILE_SRCS)
PMUFILE_REPLAY := $(BUILD)/tests/fuzz/replay_pmufile

.PHONY: fuzz-pmufile
fuzz-pmufile: $(BUILD)/fuzz/fuzz_pmufile
	@mkdir -p $(BUILD)/fuzz/corpus-pmufile
	$(BUILD)/fuzz/fuzz_pmufile -max_total_time=$(FUZZ_TIME) -max_len=65536 -timeout=10 \
		$(BUILD)/fuzz/corpus-pmufile tests/fuzz/corpus/pmufile

$(BUILD)/fuzz/fuzz_pmufile: $(PMUFILE_FUZZ_SRCS) $(wildcard lib/pmufile/*.h)
	@command -v clang >/dev/null 2>&1 || { \
		echo "fuzz-pmufile: clang is not installed (apt-get install clang); the corpus" \
		     "replay (tests/suites/fuzz_replay_pmufile.sh) works with gcc" >&2; exit 1; }
	@mkdir -p $(dir $@)
	clang -O1 -g -fsanitize=fuzzer,address,undefined -fno-omit-frame-pointer $(WARN) \
		-std=gnu11 $(CPPFLAGS_COMMON) -o $@ $(PMUFILE_FUZZ_SRCS)

$(PMUFILE_REPLAY): $(PMUFILE_FUZZ_SRCS) tests/fuzz/replay_main.c $(wildcard lib/pmufile/*.h)
	@mkdir -p $(dir $@)
	$(CC) -O1 -g $(FUZZ_SAN) $(WARN) -std=gnu11 $(CPPFLAGS_COMMON) -o $@ \
		$(PMUFILE_FUZZ_SRCS) tests/fuzz/replay_main.c

unit: $(PMUFILE_REPLAY)
