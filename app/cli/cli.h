// tilescope-cli: one file per subcommand, each registering itself here.
#pragma once

#include "tilescope/layout/layout.h"

#include <functional>
#include <string>
#include <vector>

namespace cli {

// Exit codes of the CLI contract.
inline constexpr int kOk = 0;
inline constexpr int kInternal = 1;
inline constexpr int kBadInput = 2;

struct Command {
    std::string name;
    std::string usage;   // one line: "table SPEC [--summary]"
    std::string summary; // what it does
    std::function<int(const std::vector<std::string>& args)> run;
};

std::vector<Command>& registry();

struct Register {
    explicit Register(Command c) { registry().push_back(std::move(c)); }
};

// Prints "tilescope-cli: <what>" (with caret lines for parse errors) and returns kBadInput,
// or kInternal for anything unexpected. Use it around every command body.
int reportError(const std::function<int()>& body);

// A flag's non-negative integer value (at most 2^20); InputError naming the flag otherwise.
int parseCount(const std::string& flag, const std::string& value);

// A fragment that puts two elements in one register of one thread is almost always a mistake:
// every command that prints or draws one says so on stderr ("warning", or "error" when strict;
// `what` prefixes the message, e.g. "SPEC_A: "). Returns true when there were collisions.
bool warnSlotCollisions(const ts::Mapping& m, bool strict = false, const std::string& what = "");

// The mapping a SPEC names (mapping text, or FILE.json[:NAME]).
struct ParsedSpec;

} // namespace cli
