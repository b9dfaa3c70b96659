#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

namespace dlock::cli {

// dlock's --help layout: CLI11's, without the parser's notes ("REQUIRED", "Excludes: --x",
// "Needs: --y", "TEXT"), descriptions wrapped to fit 100 columns, and on the top page (the app
// without a parent) the examples after the usage line and the common options and subcommands
// before the groups of options few need (TLS, Sentinel, ...). Subcommands inherit it.
class HelpFormatter : public CLI::Formatter {
  public:
    // Help text made only when help is shown: building it costs every run's start-up.
    using Text = std::function<std::string()>;

    // `examples`: the "Examples:" section of the top page; `footer`: the footer of `owner`,
    // instead of CLI11's (text given to the app). Null for none.
    explicit HelpFormatter(Text examples = nullptr, const CLI::App* owner = nullptr,
                           Text footer = nullptr);

    std::string make_help(const CLI::App* app, std::string name,
                          CLI::AppFormatMode mode) const override;
    std::string make_description(const CLI::App* app) const override;
    std::string make_usage(const CLI::App* app, std::string name) const override;
    std::string make_option_opts(const CLI::Option* option) const override;
    std::string make_option_desc(const CLI::Option* option) const override;
    std::string make_subcommand(const CLI::App* sub) const override;
    std::string make_footer(const CLI::App* app) const override;

    // Replaces CLI11's "Usage:" line of `app` with `lines` (each a whole command line), and
    // gives it `footer` (see the constructor).
    static void set_usage(CLI::App& app, std::vector<std::string> lines, Text footer = nullptr);

  private:
    std::string groups(const CLI::App* app, bool common) const;

    Text examples_;
    const CLI::App* owner_;
    Text footer_;
    std::vector<std::string> usage_;
};

// `rows` of {left, right} as a help section: "\n<title>:\n" then one line per row, the right
// column two spaces after the longest left one.
std::string help_section(const std::string& title,
                         const std::vector<std::pair<std::string, std::string>>& rows);

} // namespace dlock::cli
