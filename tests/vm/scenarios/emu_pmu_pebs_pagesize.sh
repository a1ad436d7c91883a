#!/bin/sh
# Scenario (issue 16): pebs_pagesize (issue 6: a precise all-loads event's
# data addresses split by page size as the pagesizes workload's accesses
# are) on the emulated PMU's PEBS (tests/vm/qemu-pmu 0008, pebs=on) instead
# of KVM's, which this project's machines do not have. The body and the host
# half are pebs_pagesize's, with Linux perf's split in the same boot as a
# second oracle (PEBS_WITH_PERF).
# needs: pmu perf module bin:pmuctl bin:pagesizes host:pmuconv
# cpu: max,vendor=GenuineIntel,family=6,model=94,pmu=on,rdcl-no=on,pebs=on
# timeout: 300
# results-mb: 64

PEBS_WITH_PERF=1
. /scenarios/pebs_pagesize.sh
