/* native_binaries: a shared library that gen.sh strips without keeping a
 * debug file, so its static function has no name anywhere. */
__attribute__((noinline)) static int lib_inner(int x)
{
	return x * 3 - 1;
}

__attribute__((noinline)) int lib_api(int x)
{
	return lib_inner(x) + 2;
}
