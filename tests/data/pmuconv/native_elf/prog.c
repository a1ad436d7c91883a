/* PIE executable for the native_elf case: exe_work is static, so once the
 * binary is stripped only its debug file (found via .gnu_debuglink) names it. */
int lib_hot(int);
__attribute__((noinline)) static int exe_work(int x)
{
	for (int i = 0; i < 100; i++)
		x = x * 7 + i;
	return x;
}
int main(int argc, char **argv)
{
	(void)argv;
	return exe_work(argc) + lib_hot(argc);
}
