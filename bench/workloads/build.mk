# bench/workloads: the CPU-bound workload of the profiler benchmarks
# (make bench). Built static for the VM guest into $(BUILD)/bench/guest/,
# not into $(BUILD)/guest/ (GUEST_BINS): only the bench boots ship it, so
# the test initramfs stays as it is. Built as tests/workloads are (frame
# pointers everywhere, -O1) so user stacks walk with perf -g and pmuctl -g.
BENCHWORK := $(BUILD)/bench/guest/benchwork
BENCH_GUEST_BINS += $(BENCHWORK)
$(BENCHWORK): bench/workloads/benchwork.c tests/workloads/wl_common.h tests/tools/opts.h
	$(workload)
