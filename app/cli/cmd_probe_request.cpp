// `probe-request`: the tilescope-probe request the GUI's Run button would send, written without
// the GUI (a headless GPU box gets the file; its JSON result comes back through File > Import
// Measurements). Both call ts::probeRequestFor, so the request is the same one.
#include "cli.h"

#include "tilescope/device/run_prepare.h"
#include "tilescope/notation/document.h"
#include "tilescope/support/errors.h"

#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

namespace {

const char* kUsage =
    "probe-request SPEC --access ACCESS [--dtype DTYPE] [--vector N] [--store] [--name NAME] "
    "[--no-ncu] [--run-timeout S] [-o FILE] | probe-request --sweep SPEC|PROJECT.json... "
    "--access ACCESS [--access ACCESS...] [same options]";

struct Source {
    std::string name, text;
    bool fromProject = false; // every layout of a project: fragments are skipped, not fatal
};

// SPEC -> named mapping texts. FILE.json:NAME is that layout (named NAME); FILE.json alone is the
// active layout, or every layout of the project in a sweep; anything else is mapping text.
std::vector<Source> sourcesOf(const std::string& spec, bool sweep, const std::string& name) {
    // A file when the text up to ".json" names one: layout names may hold '(' (unlike mapping
    // text, a path is checked on disk, so "FILE.json:name (note)" still names a layout).
    const auto pos = spec.find(".json");
    const bool file = pos != std::string::npos &&
                      (pos + 5 == spec.size() || spec[pos + 5] == ':') &&
                      std::ifstream(spec.substr(0, pos + 5)).good();
    if (!file && pos != std::string::npos && spec.substr(0, pos).find('(') == std::string::npos)
        throw ts::InputError("cannot open the project file " + spec.substr(0, pos + 5));
    if (!file) return {{name.empty() ? "layout" : name, spec}};
    const std::string path = spec.substr(0, pos + 5);
    const ts::Document d = ts::loadDocumentFile(path);
    if (d.layouts.empty()) throw ts::DocumentError(path, "/layouts", "the project has no layouts");
    if (pos + 5 < spec.size()) {
        const std::string want = spec.substr(pos + 6);
        if (const ts::DocLayout* l = d.find(want)) return {{want, l->text}};
        std::string names;
        for (const auto& l : d.layouts)
            names += (names.empty() ? "" : ", ") + l.name;
        throw ts::DocumentError(path, "", "no layout named \"" + want + "\" (has: " + names + ")");
    }
    if (!sweep) {
        const ts::DocLayout& l = d.layouts[std::size_t(d.active)];
        return {{l.name, l.text}};
    }
    std::vector<Source> all;
    for (const ts::DocLayout& l : d.layouts)
        all.push_back({l.name, l.text, true});
    return all;
}

int probeRequest(const std::vector<std::string>& args) {
    return cli::reportError([&] {
        std::vector<std::string> specs, accesses;
        std::string out, name;
        bool sweep = false;
        ts::ProbeRequestInput base;
        for (std::size_t k = 0; k < args.size(); ++k) {
            const std::string& a = args[k];
            auto value = [&]() -> const std::string& {
                if (k + 1 >= args.size())
                    throw ts::InputError(a + " needs a value (usage: " + kUsage + ")");
                return args[++k];
            };
            if (a == "--access")
                accesses.push_back(value());
            else if (a == "--dtype")
                base.dtype = value();
            else if (a == "--vector")
                base.vector = cli::parseCount(a, value());
            else if (a == "--store")
                base.store = true;
            else if (a == "--name")
                name = value();
            else if (a == "--no-ncu")
                base.ncu = false;
            else if (a == "--run-timeout") {
                const std::string v = value();
                base.runTimeoutS = cli::parseCount(a, v);
                if (base.runTimeoutS < 1 || base.runTimeoutS > 86400)
                    throw ts::InputError("--run-timeout expects seconds in 1..86400, got '" + v +
                                         "'");
            } else if (a == "-o" || a == "--out")
                out = value();
            else if (a == "--sweep")
                sweep = true;
            else if (a.rfind("--", 0) != 0 && (sweep || specs.empty()))
                specs.push_back(a);
            else
                throw ts::InputError("unexpected argument '" + a + "' (usage: " + kUsage + ")");
        }
        if (specs.empty())
            throw ts::InputError(std::string("missing SPEC (usage: ") + kUsage + ")");
        if (accesses.empty())
            throw ts::InputError(std::string("missing --access (usage: ") + kUsage + ")");
        if (!sweep && accesses.size() > 1)
            throw ts::InputError("several --access need --sweep (one request holds one access)");

        nlohmann::json result;
        if (!sweep) {
            const Source s = sourcesOf(specs[0], false, name).front();
            ts::ProbeRequestInput in = base;
            in.layoutName = s.name;
            in.mappingText = s.text;
            in.access = accesses[0];
            result = ts::probeRequestFor(in).request;
        } else {
            nlohmann::json patterns = nlohmann::json::array();
            for (const std::string& spec : specs)
                for (const Source& s : sourcesOf(spec, true, specs.size() == 1 ? name : ""))
                    for (const std::string& access : accesses) {
                        ts::ProbeRequestInput in = base;
                        in.layoutName = s.name;
                        in.mappingText = s.text;
                        in.access = access;
                        try {
                            patterns.push_back(ts::probeRequestFor(in).request);
                        } catch (const std::exception& e) {
                            // A project holds fragments and scratch layouts too: say which were
                            // left out rather than refusing the whole sweep.
                            if (!s.fromProject) throw;
                            std::cerr << "tilescope-cli: skipped '" << s.name << "' / '" << access
                                      << "': " << e.what() << "\n";
                        }
                    }
            if (patterns.empty())
                throw ts::InputError("no layout and access of the sweep can be run (see above)");
            // The probe reads "ncu" at a sweep's top level; patterns carry it too.
            result = {{"ncu", base.ncu}, {"patterns", patterns}};
        }
        const std::string text = result.dump() + "\n";
        if (out.empty()) {
            std::cout << text;
        } else {
            std::ofstream f(out, std::ios::binary);
            f << text;
            if (!f.flush()) throw ts::InputError("cannot write " + out);
            std::cerr << "tilescope-cli: wrote "
                      << (sweep ? std::to_string(result["patterns"].size()) + " requests"
                                : std::string("the request"))
                      << " to " << out << "\n";
        }
        return cli::kOk;
    });
}

cli::Register r({"probe-request", kUsage,
                 "write the tilescope-probe request the GUI's Run button would send (same plan, "
                 "same round-trip tile); --sweep: every SPEC (every layout of a project file) x "
                 "every --access, as one sweep file for tilescope-probe --sweep",
                 probeRequest});

} // namespace
