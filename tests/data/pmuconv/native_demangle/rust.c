/* native_demangle: a symbol table with Rust-mangled names, made without a
 * Rust toolchain: C functions whose assembler names are the manglings
 * rustc would emit for mycrate::inner::work (legacy scheme, with its hash)
 * and <[u8; 4] as core::fmt::Debug>::fmt (v0 scheme, a name with a ';'). */
int rust_legacy_fn(int) __asm__("_ZN7mycrate5inner4work17h0123456789abcdefE");
int rust_v0_fn(int) __asm__("_RNvXs_Cs1234_7mycrateAhj4_NtNtCs5678_4core3fmt5Debug3fmt");

__attribute__((noinline)) int rust_legacy_fn(int x)
{
	return x + 1;
}

__attribute__((noinline)) int rust_v0_fn(int x)
{
	return x + 2;
}
