# bench/tools: helpers of make bench (bench/run.sh), not installed.
#   benchtime      run a command, print wall/user/sys/peak RSS (host + static guest copy)
#   pmustats       session stats + handler-time percentiles of pmuprof data files
#   perfscriptgen  synthetic `perf script` text for the converter benchmark
# `make bench-bins` builds these, the bench workload and the ring benchmark.
BENCH_TOOL_DIR := $(BUILD)/bench
BENCHTIME := $(BENCH_TOOL_DIR)/benchtime
BENCHTIME_GUEST := $(BENCH_TOOL_DIR)/guest/benchtime
PMUSTATS := $(BENCH_TOOL_DIR)/pmustats
PERFSCRIPTGEN := $(BENCH_TOOL_DIR)/perfscriptgen
BENCH_GUEST_BINS += $(BENCHTIME_GUEST)

$(BENCHTIME) $(PMUSTATS) $(PERFSCRIPTGEN): $(BENCH_TOOL_DIR)/%: $(BUILD)/obj/bench/tools/%.o
	$(link)
$(PMUSTATS): $(PMUFILE_LIB)
$(BENCHTIME_GUEST): $(BUILD)/gobj/bench/tools/benchtime.o
	$(link-static)

# Everything bench/run.sh needs besides `all guest-bins` (paths spelled out
# because fragments are read in path order, before or after this one).
.PHONY: bench-bins
bench-bins: $(BENCHTIME) $(BENCHTIME_GUEST) $(PMUSTATS) $(PERFSCRIPTGEN) \
	$(BUILD)/bench/guest/benchwork $(BUILD)/bench/ringbench
