// native_demangle: C++ names that need demangling (a namespace, a class
// template, a function template, operator overloads, an anonymous
// namespace). Built by gen.sh with g++; never run.
namespace geo
{
template <typename T> struct Vec {
	T x, y;
};

template <typename T> __attribute__((noinline)) Vec<T> operator+(Vec<T> a, Vec<T> b)
{
	return Vec<T>{a.x + b.x, a.y + b.y};
}

template <typename T> __attribute__((noinline)) T dot(const Vec<T> &a, const Vec<T> &b)
{
	return a.x * b.x + a.y * b.y;
}

namespace detail
{
struct Acc {
	long n;
	__attribute__((noinline)) Acc &operator+=(long v)
	{
		n += v;
		return *this;
	}
};
} // namespace detail
} // namespace geo

namespace
{
__attribute__((noinline)) int hidden_helper(int v)
{
	return v * 7;
}
} // namespace

// rust.c's functions, under the Rust manglings it gives them
extern "C" int rust_legacy_fn(int) __asm__("_ZN7mycrate5inner4work17h0123456789abcdefE");
extern "C" int rust_v0_fn(int) __asm__("_RNvXs_Cs1234_7mycrateAhj4_NtNtCs5678_4core3fmt5Debug3fmt");

int main(int argc, char **)
{
	geo::Vec<int> a{argc, 2}, b{3, argc};
	geo::Vec<double> c{1.5, 2.5};
	geo::detail::Acc acc{0};
	acc += (a + b).x;
	acc += (long)geo::dot(c, c);
	return (int)acc.n + hidden_helper(argc) + rust_legacy_fn(argc) + rust_v0_fn(argc);
}
