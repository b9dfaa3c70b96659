// fmt's compiled part, built once here instead of in every file that formats (FMT_HEADER_ONLY
// compiled it into each of them, which dominated their compile times, and left one copy per
// file for the linker to fold; figures in docs/BENCHMARKS.md). Debian's libfmt-dev ships only a
// shared library, which would cost every `dlock run` a dynamic load. These are the instantiations
// fmt's own src/format.cc makes.

#include <fmt/format-inl.h>

FMT_BEGIN_NAMESPACE
namespace detail {

template auto dragonbox::to_decimal(float x) noexcept -> dragonbox::decimal_fp<float>;
template auto dragonbox::to_decimal(double x) noexcept -> dragonbox::decimal_fp<double>;

#ifndef FMT_STATIC_THOUSANDS_SEPARATOR
template locale_ref::locale_ref(const std::locale& loc);
template auto locale_ref::get<std::locale>() const -> std::locale;
#endif

template auto thousands_sep_impl(locale_ref) -> thousands_sep_result<char>;
template auto decimal_point_impl(locale_ref) -> char;
template void buffer<char>::append(const char*, const char*);
template void vformat_to(buffer<char>&, string_view, basic_format_args<FMT_BUFFER_CONTEXT(char)>,
                         locale_ref);

} // namespace detail
FMT_END_NAMESPACE
