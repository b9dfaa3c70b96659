#include "cli/help_formatter.hpp"

#include <algorithm>
#include <sstream>

namespace dlock::cli {
namespace {

// Help lines fit this many columns (descriptions wrap under their column; a long word stays).
constexpr size_t kHelpWidth = 100;

// `text` with its lines broken at spaces to at most `width` columns.
std::string wrap(const std::string& text, size_t width) {
    std::string out;
    size_t line = 0; // columns used on the current line
    std::istringstream paragraphs(text);
    for (std::string paragraph; std::getline(paragraphs, paragraph);) {
        if (!out.empty())
            out += '\n';
        line = 0;
        std::istringstream words(paragraph);
        for (std::string word; words >> word;) {
            if (line > 0 && line + 1 + word.size() > width) {
                out += '\n';
                line = 0;
            } else if (line > 0) {
                out += ' ';
                ++line;
            }
            out += word;
            line += word.size();
        }
    }
    return out;
}

} // namespace

HelpFormatter::HelpFormatter(Text examples, const CLI::App* owner, Text footer)
    : examples_(std::move(examples)), owner_(owner), footer_(std::move(footer)) {}

std::string HelpFormatter::make_help(const CLI::App* app, std::string name,
                                     CLI::AppFormatMode mode) const {
    if (mode == CLI::AppFormatMode::Sub)
        return make_expanded(app);
    std::string out = make_description(app) + make_usage(app, std::move(name));
    if (app->get_parent() == nullptr && examples_)
        out += examples_();
    out += make_positionals(app) + groups(app, true) + make_subcommands(app, mode) +
           groups(app, false);
    // Footers start with their own blank line.
    return out + make_footer(app);
}

std::string HelpFormatter::groups(const CLI::App* app, bool common) const {
    std::string out;
    for (const std::string& group : app->get_groups()) {
        if ((group == "Options") != common || group.empty()) // "": hidden (flock's aliases)
            continue;
        const auto options = app->get_options([&](const CLI::Option* option) {
            return option->get_group() == group && option->nonpositional();
        });
        if (!options.empty())
            out += make_group(group, false, options);
    }
    return out;
}

std::string HelpFormatter::make_description(const CLI::App* app) const {
    const std::string& description = app->get_description();
    return description.empty() ? "" : wrap(description, kHelpWidth) + "\n";
}

std::string HelpFormatter::make_usage(const CLI::App* app, std::string name) const {
    if (usage_.empty())
        return CLI::Formatter::make_usage(app, std::move(name));
    std::string out;
    for (const auto& line : usage_)
        out += (out.empty() ? "Usage: " : "       ") + line + "\n";
    return out;
}

std::string HelpFormatter::make_option_opts(const CLI::Option* option) const {
    if (option->get_positional())
        return option->get_expected_max() >= CLI::detail::expected_max_vector_size ? "..." : "";
    if (!option->get_option_text().empty())
        return " " + option->get_option_text();
    if (option->get_type_size() != 0 && !option->get_type_name().empty())
        return " " + option->get_type_name();
    return "";
}

std::string HelpFormatter::make_option_desc(const CLI::Option* option) const {
    return wrap(option->get_description(), kHelpWidth - column_width_);
}

std::string HelpFormatter::make_subcommand(const CLI::App* sub) const {
    std::ostringstream out;
    CLI::detail::format_help(out, sub->get_display_name(true),
                             wrap(sub->get_description(), kHelpWidth - column_width_),
                             column_width_);
    return out.str();
}

std::string HelpFormatter::make_footer(const CLI::App* app) const {
    if (app != owner_ || !footer_)
        return CLI::Formatter::make_footer(app);
    return footer_() + "\n"; // as CLI11 ends a footer given as text
}

void HelpFormatter::set_usage(CLI::App& app, std::vector<std::string> lines, Text footer) {
    if (footer)
        app.footer(std::string()); // not the one inherited from the parent
    auto formatter = std::make_shared<HelpFormatter>(nullptr, &app, std::move(footer));
    formatter->usage_ = std::move(lines);
    app.formatter(formatter);
}

std::string help_section(const std::string& title,
                         const std::vector<std::pair<std::string, std::string>>& rows) {
    size_t column = 0; // the right column starts two spaces after the longest left one
    for (const auto& row : rows)
        column = std::max(column, row.first.size() + 4);
    std::ostringstream out;
    out << "\n" << title << ":\n";
    for (const auto& [left, right] : rows)
        CLI::detail::format_help(out, left, wrap(right, kHelpWidth - column), column);
    return out.str();
}

} // namespace dlock::cli
