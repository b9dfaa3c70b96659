#include "cli/metrics_command.hpp"

#include "app/metrics.hpp"
#include "cli/exit_help.hpp"
#include "util/atomic_file.hpp"
#include "util/exit_codes.hpp"
#include "util/output.hpp"

#include <cstring>
#include <fmt/format.h>

namespace dlock::cli {
namespace {

// The exposition to stdout, or with --output to FILE, replaced atomically.
Result<void> publish(const std::string& output, const std::string& text) {
    if (output.empty() || output == "-") {
        out::write(text);
        return {};
    }
    const AtomicWriteError failure = write_file_atomically(output, text);
    if (failure.step.empty())
        return {};
    if (!failure.why.empty())
        return fail(Fault::cannot_create,
                    fmt::format("cannot write metrics file {}: {}", output, failure.why));
    return fail(Fault::cannot_create, fmt::format("cannot write metrics file {}: {} ({})", output,
                                                  std::strerror(failure.error), failure.step));
}

} // namespace

MetricsCommand::MetricsCommand(CLI::App& parent) {
    app_ = parent.add_subcommand(
        "metrics", "Print Prometheus metrics (runs by outcome, last success, holders, waiters) "
                   "for node_exporter's textfile collector");
    app_->add_option("NAME", names_,
                     "names to export (default: every name in use or that has run)");
    output_option_ = app_->add_option("-o,--output", output_,
                                      "write FILE atomically (a temporary file renamed over it) "
                                      "instead of stdout (- is stdout)")
                         ->option_text("FILE");
    app_->footer(exit_status_help(HelpPage::metrics));
}

Result<app::Target> MetricsCommand::plan(const GlobalOptions& globals) const {
    if (output_option_->count() > 0 && output_.empty())
        return usage_error("--output needs a file name");
    return target_for(globals, names_);
}

Result<int> MetricsCommand::run(const app::Target& target) {
    const auto store = store_for(target);
    auto reading = app::read_metrics(*store, target, names_);
    // Redis unreachable: `dlock_up 0` is still published, so the scrape shows it, then the error.
    TRY(publish(output_, app::metrics_text(reading ? *reading : app::MetricsReading{})));
    if (!reading)
        return tl::unexpected(reading.error());
    return exit_code::ok;
}

} // namespace dlock::cli
