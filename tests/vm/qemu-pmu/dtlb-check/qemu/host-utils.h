/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Stand-in for QEMU's qemu/host-utils.h: is_power_of_2, as QEMU defines it */
static inline bool is_power_of_2(uint64_t value)
{
	return value && !(value & (value - 1));
}
