// SPDX-License-Identifier: Apache-2.0
// tilescope-cli: one file per subcommand, each registering itself here. A command declares its
// positionals and options on a CLI11 subcommand; the help and the usage named in error messages
// are generated from those declarations, so they cannot drift from what is parsed.
#pragma once

#include "tilescope/layout/layout.h"

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

namespace cli {

// Exit codes of the CLI contract.
inline constexpr int kOk = 0;
inline constexpr int kInternal = 1;
inline constexpr int kBadInput = 2;

// A command's body, run once its arguments are parsed into the variables it declared.
using Run = std::function<int()>;

struct Command {
    std::string name;
    std::string summary; // what it does
    // Declares the command's arguments on `sub`, bound to variables that the returned body
    // reads (the body owns them, e.g. through a shared_ptr it captures).
    std::function<Run(CLI::App& sub)> declare;
};

std::vector<Command>& registry();

struct Register {
    explicit Register(Command c) { registry().push_back(std::move(c)); }
};

// One line from the declarations: "table SPEC [--summary] [--strict]". Optional arguments are
// bracketed, except those marked with shownAsNeeded.
std::string usage(const CLI::App& sub);

// An option with a default that the usage still shows unbracketed, because a run is only
// meaningful when it is given (banks' --dtype: the tile's element type decides its banks).
CLI::Option* shownAsNeeded(CLI::Option* o);

// The first required argument that was not given, or given as an empty string ("" reads as
// missing, as it did before the arguments were declared): "SPEC", "--access"; empty if none.
std::string missingArgument(const CLI::App& sub);

// An InputError "<what> (usage: <usage of sub>)", for checks CLI11 cannot express (a value out of
// its set, options that exclude each other).
[[noreturn]] void badUsage(const CLI::App& sub, const std::string& what);

// The manual page tilescope-cli(1) in roff, from the declarations of every command on `app`
// (man.cpp); `tilescope-cli --man-page` prints it.
std::string manPage(const CLI::App& app, const std::string& version);

// Prints "tilescope-cli: <what>" (with caret lines for parse errors) and returns kBadInput,
// or kInternal for anything unexpected. Use it around every command body.
int reportError(const std::function<int()>& body);

// A flag's non-negative integer value (at most 2^20); InputError naming the flag otherwise.
int parseCount(const std::string& flag, const std::string& value);

// A fragment that puts two elements in one register of one thread is almost always a mistake:
// every command that prints or draws one says so on stderr ("warning", or "error" when strict;
// `what` prefixes the message, e.g. "SPEC_A: "). Returns true when there were collisions.
bool warnSlotCollisions(const ts::Mapping& m, bool strict = false, const std::string& what = "");

// What TileLang would do with the mapping that its cells do not show (ts::mappingNotes): one
// "note:" line each on stderr, `what` prefixing it as above.
void sayNotes(const ts::Mapping& m, const std::string& what = "");

} // namespace cli
