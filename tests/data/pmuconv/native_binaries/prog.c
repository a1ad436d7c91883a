/* native_binaries: the recorded executable (built by gen.sh; never run). */
int lib_api(int x);

__attribute__((noinline)) static int work(int x)
{
	return x * 5 + 1;
}

int main(int argc, char **argv)
{
	(void)argv;
	return work(argc) + lib_api(argc);
}
