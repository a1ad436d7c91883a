/* Shared library for the native_elf case: lib_static is local (.symtab
 * only), lib_hot is exported (.dynsym too). */
__attribute__((noinline)) static int lib_static(int x)
{
	for (int i = 0; i < 100; i++)
		x = x * 3 + i;
	return x;
}
__attribute__((noinline)) int lib_hot(int x)
{
	return lib_static(x) + 1;
}
