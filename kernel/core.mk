# The portable core of pmuprof.ko (kernel/pmu, kernel/nmi: no Linux headers,
# see kernel/include/pmuprof/platform.h), listed once. Read by kernel/Kbuild
# (the module) and by the top Makefile for the host unit tests, which link
# PP_CORE_OBJS (the host objects; ipiplan has its own test).
# Paths relative to kernel/, one by one (no wildcards).
PP_CORE_PMU := pmu/pmu_probe.o pmu/pmu_sched.o pmu/pmu_hw.o pmu/pmu_irq.o pmu/pmu_freq.o \
	pmu/pmu_events.o pmu/pebs.o
PP_CORE_NMI := nmi/capture.o nmi/session.o nmi/ring.o nmi/dataaddr.o nmi/x86_decode.o \
	nmi/x86_opcode_map.o nmi/pagewalk.o nmi/pebscheck.o
PP_CORE_MODULE := $(PP_CORE_NMI) nmi/ipiplan.o $(PP_CORE_PMU)
PP_CORE_OBJS = $(addprefix $(BUILD)/obj/kernel/,$(PP_CORE_PMU) $(PP_CORE_NMI))
