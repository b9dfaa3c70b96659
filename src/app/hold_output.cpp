#include "app/hold_output.hpp"

#include "util/json.hpp"

namespace dlock::app {

std::string shell_quote(std::string_view text) {
    std::string quoted = "'";
    for (char c : text) {
        if (c == '\'')
            quoted += "'\\''";
        else
            quoted += c;
    }
    quoted += '\'';
    return quoted;
}

std::string format_hold(const HoldVariables& variables, HoldFormat format) {
    std::string text;
    if (format == HoldFormat::sh) {
        for (const auto& [name, value] : variables)
            text += "export " + name + "=" + shell_quote(value) + "\n";
        return text;
    }
    for (const auto& [name, value] : variables)
        text += (text.empty() ? "{" : ",") + json_string(name) + ":" + json_string(value);
    return text + "}\n";
}

} // namespace dlock::app
