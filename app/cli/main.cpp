// SPDX-License-Identifier: Apache-2.0
#include "cli.h"

#include "tilescope/layout/builtins.h"
#include "tilescope/notation/document.h"
#include "tilescope/support/errors.h"

#include <algorithm>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

namespace cli {

std::vector<Command>& registry() {
    static std::vector<Command> r;
    return r;
}

int reportError(const std::function<int()>& body) {
    try {
        return body();
    } catch (const ts::ParseError& e) {
        std::cerr << "tilescope-cli: error: " << e.what() << "\n";
        if (auto c = e.caretLines(); !c.empty()) std::cerr << c << "\n";
        return kBadInput;
    } catch (const ts::EvalError& e) {
        std::cerr << "tilescope-cli: error: " << e.what() << "\n";
        return kBadInput;
    } catch (const ts::InputError& e) {
        std::cerr << "tilescope-cli: error: " << e.what() << "\n";
        return kBadInput;
    } catch (const ts::DocumentError& e) {
        std::cerr << "tilescope-cli: error: " << e.what() << "\n";
        return kBadInput;
    } catch (const std::bad_alloc&) {
        std::cerr << "tilescope-cli: internal error: out of memory\n";
        return kInternal;
    } catch (const std::exception& e) {
        std::cerr << "tilescope-cli: internal error: " << e.what() << "\n";
        return kInternal;
    }
}

} // namespace cli

namespace {

// The top-level help: every command's usage (from its declarations) and summary, then what a
// SPEC is and the builtins and dtypes the mapping language knows.
std::string topHelp(const CLI::App& app) {
    std::ostringstream o;
    o << "tilescope-cli: " << app.get_description() << "\n\nUsage:\n";
    for (const CLI::App* sub : app.get_subcommands({}))
        o << "  tilescope-cli " << cli::usage(*sub) << "\n      " << sub->get_description() << "\n";
    o << "\nEach command's options: tilescope-cli COMMAND --help\n"
      << "\nSPEC is mapping-language text, e.g.\n"
         "  'T.Fragment([8, 8], forward_thread_fn=lambda i, j: 4 * i + j // 2, "
         "forward_index_fn=lambda i, j: j % 2)'\n"
         "or FILE.json[:NAME] naming a layout of a project file.\n"
         "\nExit codes: 0 success, 2 bad input (message names what and where), 1 internal "
         "failure.\n"
         "\nBuiltin layouts (TileLang names; (shape, dtype) where TileLang takes a buffer):\n";
    for (const auto& b : ts::builtins())
        o << "  " << ts::builtinSignature(b) << "\n      " << b.summary << "\n";
    o << "\nMethods: Layout.repeat(dim, factor), Layout.expand(leading_shape), .inverse(),\n"
         "  Fragment.repeat(repeats, repeat_on_thread=False, lower_dim_first=True), "
         "Fragment.replicate(n)\n"
         "dtypes:";
    for (const auto& d : ts::knownDtypes())
        o << " " << d;
    o << "\n";
    return o.str();
}

bool isCommand(const std::string& name) {
    return std::any_of(cli::registry().begin(), cli::registry().end(),
                       [&](const cli::Command& c) { return c.name == name; });
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app{"TileLang layouts and fragments from the command line", "tilescope-cli"};
    std::map<const CLI::App*, cli::Run> bodies;
    // A repeated option keeps its last value (an option meant to repeat, such as probe-request's
    // --access, says so where it is declared).
    app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    for (const auto& c : cli::registry()) {
        CLI::App* sub = app.add_subcommand(c.name, c.summary);
        // Extra arguments are reported by the CLI's own message, with the command's usage.
        sub->allow_extras();
        bodies[sub] = c.declare(*sub);
    }
    // Set after the subcommands: they copy their parent's formatter when added and keep
    // CLI11's per-command help.
    app.formatter_fn(
        [](const CLI::App* a, std::string, CLI::AppFormatMode) { return topHelp(*a); });

    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty()) {
        std::cout << app.help();
        return cli::kBadInput;
    }
    if (args[0] == "help") args[0] = "--help";
    if (args[0] == "--version" || args[0] == "version") {
        std::cout << "tilescope-cli " << TILESCOPE_VERSION << "\n";
        return cli::kOk;
    }
    if (args[0] == "--man-page") { // tilescope-cli(1), made by the build (man.cpp)
        std::cout << cli::manPage(app, TILESCOPE_VERSION);
        return cli::kOk;
    }
    if (args[0] != "--help" && args[0] != "-h" && !isCommand(args[0])) {
        std::cerr << "tilescope-cli: error: unknown command '" << args[0]
                  << "' (see tilescope-cli --help)\n";
        return cli::kBadInput;
    }

    std::reverse(args.begin(), args.end()); // CLI11 consumes the vector from its back
    try {
        app.parse(args);
    } catch (const CLI::CallForHelp&) {
        std::cout << app.help(); // the selected command's help, or topHelp
        return cli::kOk;
    } catch (const CLI::ParseError& e) {
        const auto selected = app.get_subcommands();
        std::string what = e.what();
        if (!selected.empty() && dynamic_cast<const CLI::RequiredError*>(&e))
            what = "missing " + cli::missingArgument(*selected[0]);
        std::cerr << "tilescope-cli: error: " << what;
        if (!selected.empty()) std::cerr << " (usage: " << cli::usage(*selected[0]) << ")";
        std::cerr << "\n";
        return cli::kBadInput;
    }
    const CLI::App* sub = app.get_subcommands().at(0);
    return cli::reportError([&] {
        if (const auto extra = sub->remaining(); !extra.empty())
            cli::badUsage(*sub, "unexpected argument '" + extra.front() + "'");
        if (const std::string missing = cli::missingArgument(*sub); !missing.empty())
            cli::badUsage(*sub, "missing " + missing);
        return bodies.at(sub)();
    });
}
