# ringbench: per-CPU ring microbenchmark (host). Not installed.
#   make bench-ring        build and print the table (bench/ring/run.sh)
RINGBENCH := $(BUILD)/bench/ringbench
BENCH_BINS += $(RINGBENCH)

$(RINGBENCH): $(BUILD)/obj/bench/ring/ringbench.o $(BUILD)/obj/kernel/nmi/ring.o
	$(link)
$(RINGBENCH): private LDLIBS := -lpthread

.PHONY: bench-ring
bench-ring: $(RINGBENCH)
	@sh bench/ring/run.sh $(RINGBENCH)
