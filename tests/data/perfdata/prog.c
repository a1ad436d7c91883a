/* Program for the perf.data round trip (tests/suites/perfdata.sh): twelve
 * functions that the spec's samples land in, so that perf and pmuconv both
 * resolve them from this ELF file. Never run. */
#define F(n)                                                                                       \
	__attribute__((noinline)) int n(int x)                                                     \
	{                                                                                          \
		for (int i = 0; i < 50; i++)                                                       \
			x = x * 5 + i;                                                             \
		return x;                                                                          \
	}
F(alpha_work)
F(bravo_work)
F(charlie_work)
F(delta_work)
F(echo_work)
F(foxtrot_work)
F(golf_work)
F(hotel_work)
F(india_work)
F(juliet_work)
F(kilo_work)
F(lima_work)

int main(int argc, char **argv)
{
	(void)argv;
	return alpha_work(argc) + bravo_work(argc) + charlie_work(argc) + delta_work(argc) +
	       echo_work(argc) + foxtrot_work(argc) + golf_work(argc) + hotel_work(argc) +
	       india_work(argc) + juliet_work(argc) + kilo_work(argc) + lima_work(argc);
}
