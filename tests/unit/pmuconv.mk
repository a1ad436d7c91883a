# Unit tests of pmuconv's pieces: escaping, interning/aggregation, the text
# parsers (table driven), format detection, report arithmetic, and ELF
# symbol lookup on test ELFs built at test time (gcc, objcopy).
UNIT_TESTS += $(BUILD)/tests/unit/test_pmuconv
$(BUILD)/tests/unit/test_pmuconv: $(PMUCONV_CORE_OBJS) $(PMUFILE_LIB)
$(BUILD)/tests/unit/test_pmuconv: private LDLIBS := $(PMUCONV_LIBS) -ldl

# mkdata: writes pmuprof files from text specs for the expected-output suite
# (tests/suites/pmuconv_expected.sh).
PMUCONV_MKDATA := $(BUILD)/tests/pmuconv_mkdata
$(PMUCONV_MKDATA): $(BUILD)/obj/tests/data/pmuconv/mkdata.o $(PMUFILE_LIB)
	$(link)
unit: $(PMUCONV_MKDATA)

# Fuzz targets for pmuconv's text parsers (tests/fuzz/fuzz_perfscript.c,
# fuzz_stap.c). Replay binaries (gcc + ASan/UBSan, the shared
# tests/fuzz/replay_main.c) run the saved corpus in `make check` via
# tests/suites/fuzz_replay_pmuconv.sh; `make fuzz-pmuconv [FUZZ_TIME=60]`
# fuzzes with clang's libFuzzer. They feed the text parsers only; lib/pmufile
# is linked in as in pmuconv (its own fuzzer covers pmuprof-file parsing).
PMUCONV_FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	-fno-omit-frame-pointer
PMUCONV_FUZZ_SRCS := $(PMUCONV_CORE_SRCS) $(PMUFILE_SRCS)
PMUCONV_FUZZ_FLAGS := -O1 -g $(WARN) -std=gnu11 $(CPPFLAGS_COMMON)
PMUCONV_REPLAYS := $(BUILD)/tests/fuzz/replay_perfscript $(BUILD)/tests/fuzz/replay_stap

$(BUILD)/tests/fuzz/replay_perfscript: tests/fuzz/fuzz_perfscript.c tests/fuzz/replay_main.c \
		$(PMUCONV_FUZZ_SRCS) $(wildcard host/pmuconv/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(PMUCONV_FUZZ_FLAGS) $(PMUCONV_FUZZ_SAN) -o $@ tests/fuzz/fuzz_perfscript.c \
		tests/fuzz/replay_main.c $(PMUCONV_FUZZ_SRCS) $(PMUCONV_LIBS)

$(BUILD)/tests/fuzz/replay_stap: tests/fuzz/fuzz_stap.c tests/fuzz/fuzz_perfscript.c \
		tests/fuzz/replay_main.c $(PMUCONV_FUZZ_SRCS) $(wildcard host/pmuconv/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(PMUCONV_FUZZ_FLAGS) $(PMUCONV_FUZZ_SAN) -DPMUCONV_FUZZ_NO_ENTRY -o $@ \
		tests/fuzz/fuzz_stap.c tests/fuzz/fuzz_perfscript.c tests/fuzz/replay_main.c \
		$(PMUCONV_FUZZ_SRCS) $(PMUCONV_LIBS)

unit: $(PMUCONV_REPLAYS)

$(BUILD)/fuzz/fuzz_perfscript $(BUILD)/fuzz/fuzz_stap: $(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c \
		tests/fuzz/fuzz_perfscript.c $(PMUCONV_FUZZ_SRCS)
	@command -v clang >/dev/null 2>&1 || { \
		echo "fuzz-pmuconv: clang is not installed (apt-get install clang); the corpus" \
		     "replay (tests/suites/fuzz_replay_pmuconv.sh) works with gcc" >&2; exit 1; }
	@mkdir -p $(dir $@)
	clang $(PMUCONV_FUZZ_FLAGS) -fsanitize=fuzzer,address,undefined -Wno-unused-command-line-argument \
		$(if $(filter %stap,$@),-DPMUCONV_FUZZ_NO_ENTRY) -o $@ \
		$(sort tests/fuzz/fuzz_$*.c tests/fuzz/fuzz_perfscript.c) $(PMUCONV_FUZZ_SRCS) $(PMUCONV_LIBS)

FUZZ_TIME ?= 60
.PHONY: fuzz-pmuconv
fuzz-pmuconv: $(BUILD)/fuzz/fuzz_perfscript $(BUILD)/fuzz/fuzz_stap
	@for t in perfscript stap; do \
		mkdir -p $(BUILD)/fuzz/corpus-$$t; \
		$(BUILD)/fuzz/fuzz_$$t -max_total_time=$(FUZZ_TIME) -max_len=65536 -timeout=10 \
			$(BUILD)/fuzz/corpus-$$t tests/fuzz/corpus/$$t || exit 1; \
	done
