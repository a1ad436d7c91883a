/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Intel family 06H display models (pmu__probe: (ext_model << 4) + model) of
 * the parts pmuprof has per-model facts for (SDM vol. 4 table 2-1). Names
 * only: the facts are const tables in the .c files (pebs.c).
 */
#ifndef PMUPROF_X86_MODELS_H
#define PMUPROF_X86_MODELS_H

/* Nehalem, Westmere */
#define X86_MODEL_NEHALEM_EP  0x1au
#define X86_MODEL_NEHALEM     0x1eu
#define X86_MODEL_NEHALEM_G   0x1fu
#define X86_MODEL_NEHALEM_EX  0x2eu
#define X86_MODEL_WESTMERE    0x25u
#define X86_MODEL_WESTMERE_EP 0x2cu
#define X86_MODEL_WESTMERE_EX 0x2fu
/* Sandy Bridge, Ivy Bridge */
#define X86_MODEL_SANDYBRIDGE	0x2au
#define X86_MODEL_SANDYBRIDGE_X 0x2du
#define X86_MODEL_IVYBRIDGE	0x3au
#define X86_MODEL_IVYBRIDGE_X	0x3eu
/* Haswell, Broadwell */
#define X86_MODEL_HASWELL     0x3cu
#define X86_MODEL_HASWELL_X   0x3fu
#define X86_MODEL_HASWELL_L   0x45u
#define X86_MODEL_HASWELL_G   0x46u
#define X86_MODEL_BROADWELL   0x3du
#define X86_MODEL_BROADWELL_G 0x47u
#define X86_MODEL_BROADWELL_X 0x4fu
#define X86_MODEL_BROADWELL_D 0x56u
/* Skylake and its refreshes (Kaby, Coffee, Comet Lake), Skylake-SP */
#define X86_MODEL_SKYLAKE_L   0x4eu
#define X86_MODEL_SKYLAKE     0x5eu
#define X86_MODEL_SKYLAKE_X   0x55u
#define X86_MODEL_KABYLAKE_L  0x8eu
#define X86_MODEL_KABYLAKE    0x9eu
#define X86_MODEL_COMETLAKE   0xa5u
#define X86_MODEL_COMETLAKE_L 0xa6u
/* Ice Lake, Tiger Lake, Rocket Lake */
#define X86_MODEL_ICELAKE_L    0x7eu
#define X86_MODEL_ICELAKE_NNPI 0x7du
#define X86_MODEL_ICELAKE_X    0x6au
#define X86_MODEL_ICELAKE_D    0x6cu
#define X86_MODEL_TIGERLAKE_L  0x8cu
#define X86_MODEL_TIGERLAKE    0x8du
#define X86_MODEL_ROCKETLAKE   0xa7u

#endif /* PMUPROF_X86_MODELS_H */
