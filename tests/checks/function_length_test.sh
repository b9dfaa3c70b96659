#!/bin/sh
# scripts/check-function-length.sh on fixtures: a function of 60 lines passes and one of 61 is
# named with its length, whatever braces stand in its comments and literals, for free functions,
# member functions defined in a class body, constructors with braced initialisers and functions
# with lambdas in them (which count as part of their function).
# Usage: function_length_test.sh CHECKER
set -eu
checker=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failures=0

# body N: N lines of statements.
body() {
    i=0
    while [ "$i" -lt "$1" ]; do
        echo "    x += $i;"
        i=$((i + 1))
    done
}

# expect NAME STATUS OUTPUT: the checker on $dir/NAME.cpp exits STATUS and prints OUTPUT.
expect() {
    status=0
    out=$("$checker" "$dir/$1.cpp" 2>/dev/null) || status=$?
    want=$3
    [ -z "$want" ] || want="$dir/$want"
    if [ "$status" -ne "$2" ] || [ "$out" != "$want" ]; then
        echo "FAIL $1: exit $status, printed:"
        echo "$out"
        echo "expected: exit $2, $want"
        failures=$((failures + 1))
    else
        echo "ok   $1"
    fi
}

# 60 lines from the name to the closing brace: allowed.
{
    echo "int sixty() {"
    echo "    int x = 0;"
    body 56
    echo "    return x;"
    echo "}"
} >"$dir/sixty.cpp"
expect sixty 0 ""

# 61 lines: named, at the line of its name.
{
    echo "#include <string>"
    echo ""
    echo "int sixty_one() {"
    echo "    int x = 0;"
    body 57
    echo "    return x;"
    echo "}"
} >"$dir/sixty_one.cpp"
expect sixty_one 1 "sixty_one.cpp:3 sixty_one (61 lines)"

# A member function defined in a class body, with a two-line signature; braces in comments,
# strings, characters and raw strings; a digit separator; a lambda inside. 61 lines.
{
    echo "namespace n {"
    echo "class Widget {"
    echo "  public:"
    echo "    // A { in a comment, and } another."
    echo "    int size(int a,"
    echo "             int b) const {"
    echo "        int x = 1'000'000; /* { */"
    echo "        const char* s = \"}\";"
    echo "        char c = '{';"
    echo "        auto f = [&](int y) {"
    echo "            return y + '}';"
    echo "        };"
    echo "        const char* r = R\"(}"
    echo "}})\";"
    body 49
    echo "        return x + f(a) + b + c + s[0] + r[0];"
    echo "    }"
    echo "    int small() const { return 1; }"
    echo "};"
    echo "} // namespace n"
} >"$dir/member.cpp"
expect member 1 "member.cpp:5 size (61 lines)"

# A constructor whose last member initialiser is braced, and an initialiser at namespace scope
# (not a function): 61 lines.
{
    echo "const int kTable[] = {1, 2, 3};"
    echo "Widget::Widget(int a)"
    echo "    : a_(a), b_{a} {"
    echo "    int x = 0;"
    body 56
    echo "    a_ = x;"
    echo "}"
} >"$dir/ctor.cpp"
expect ctor 1 "ctor.cpp:2 Widget::Widget (61 lines)"

# An unbalanced file is reported, not measured.
{
    echo "int broken() {"
    echo "#if A"
    echo "    if (a) {"
    echo "#else"
    echo "    if (b) {"
    echo "#endif"
    echo "    }"
    echo "}"
} >"$dir/broken.cpp"
status=0
"$checker" "$dir/broken.cpp" >"$dir/broken.out" 2>&1 || status=$?
if [ "$status" -eq 1 ] && grep -q "broken.cpp: braces do not balance" "$dir/broken.out"; then
    echo "ok   broken"
else
    echo "FAIL broken: exit $status"
    cat "$dir/broken.out"
    failures=$((failures + 1))
fi

[ "$failures" -eq 0 ]
