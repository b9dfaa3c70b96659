#include "cli/app_tree.hpp"

#include <algorithm>

namespace dlock::cli {

std::vector<const CLI::App*> parsed_chain(const CLI::App& top) {
    std::vector<const CLI::App*> chain{&top};
    for (bool deeper = true; deeper;) {
        deeper = false;
        for (const auto* sub : chain.back()->get_subcommands({}))
            if (sub->parsed()) {
                chain.push_back(sub);
                deeper = true;
                break;
            }
    }
    return chain;
}

std::string path_of(const std::vector<const CLI::App*>& chain) {
    std::string path;
    for (size_t i = 1; i < chain.size(); ++i)
        path += (path.empty() ? "" : " ") + chain[i]->get_name();
    return path;
}

std::string_view option_name(std::string_view arg) {
    return arg.substr(0, arg.find('='));
}

bool takes_separate_value(const CLI::App& app, const std::string& arg) {
    if (!arg.starts_with('-') || arg.find('=') != std::string::npos)
        return false;
    const auto* option = app.get_option_no_throw(arg);
    return option != nullptr && option->get_items_expected_min() > 0;
}

bool is_option_of(const CLI::App& app, const std::string& arg) {
    if (!arg.starts_with('-') || arg == "-" || arg == "--")
        return false;
    if (app.get_option_no_throw(std::string(option_name(arg))) != nullptr)
        return true;
    if (arg.starts_with("--"))
        return false;
    return std::all_of(arg.begin() + 1, arg.end(), [&](char c) {
        return app.get_option_no_throw(std::string{'-', c}) != nullptr;
    });
}

const CLI::App* find_subcommand(const CLI::App& app, const std::string& name) {
    for (const auto* sub : app.get_subcommands({}))
        if (sub->get_name() == name)
            return sub;
    return nullptr;
}

std::vector<std::string> long_option_names(const CLI::App& app) {
    std::vector<std::string> names;
    for (const auto* option : app.get_options({}))
        for (const auto& name : option->get_lnames())
            names.push_back(name);
    return names;
}

} // namespace dlock::cli
