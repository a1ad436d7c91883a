#!/bin/sh
# perf_cli: three recordings of the same samples: with stacks, data
# addresses and code pages (data.pmu), with stacks only (noaddr.pmu), and
# with the sampled IP only (flat.pmu), so `pmuconv script` shows perf's
# callchain, addr/page-size and one-line layouts.
set -e
"$MKDATA" spec.txt data.pmu
"$MKDATA" noaddr.txt noaddr.pmu
"$MKDATA" flat.txt flat.pmu
