#include "cli.h"

#include "tilescope/layout/builtins.h"
#include "tilescope/notation/document.h"
#include "tilescope/support/errors.h"

#include <iostream>
#include <nlohmann/json.hpp>

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

void printHelp() {
    std::cout << "tilescope-cli: TileLang layouts and fragments from the command line\n\nUsage:\n";
    for (const auto& c : cli::registry())
        std::cout << "  tilescope-cli " << c.usage << "\n      " << c.summary << "\n";
    std::cout
        << "\nSPEC is mapping-language text, e.g.\n"
           "  'T.Fragment([8, 8], forward_thread_fn=lambda i, j: 4 * i + j // 2, "
           "forward_index_fn=lambda i, j: j % 2)'\n"
           "or FILE.json[:NAME] naming a layout of a project file.\n"
           "\nExit codes: 0 success, 2 bad input (message names what and where), 1 internal "
           "failure.\n"
           "\nBuiltin layouts (TileLang names; (shape, dtype) where TileLang takes a buffer):\n";
    for (const auto& b : ts::builtins()) {
        std::cout << "  " << ts::builtinSignature(b) << "\n      " << b.summary << "\n";
    }
    std::cout
        << "\nMethods: Layout.repeat(dim, factor), Layout.expand(leading_shape), .inverse(),\n"
           "  Fragment.repeat(repeats, repeat_on_thread=False, lower_dim_first=True), "
           "Fragment.replicate(n)\n"
           "dtypes:";
    for (const auto& d : ts::knownDtypes())
        std::cout << " " << d;
    std::cout << "\n";
}

} // namespace

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        printHelp();
        return args.empty() ? cli::kBadInput : cli::kOk;
    }
    if (args[0] == "--version" || args[0] == "version") {
        std::cout << "tilescope-cli " << TILESCOPE_VERSION << "\n";
        return cli::kOk;
    }
    for (const auto& c : cli::registry())
        if (c.name == args[0]) {
            std::vector<std::string> rest(args.begin() + 1, args.end());
            return c.run(rest);
        }
    std::cerr << "tilescope-cli: error: unknown command '" << args[0]
              << "' (see tilescope-cli --help)\n";
    return cli::kBadInput;
}
