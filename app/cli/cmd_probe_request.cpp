// SPDX-License-Identifier: Apache-2.0
// `probe-request`: the tilescope-probe request the GUI's Run button would send, written without
// the GUI (a headless GPU box gets the file; its JSON result comes back through File > Import
// Measurements). Both call ts::probeRequestFor, so the request is the same one.
#include "cli.h"

#include "tilescope/device/run_prepare.h"
#include "tilescope/notation/document.h"
#include "tilescope/support/errors.h"

#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

namespace {

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

struct ProbeArgs {
    std::vector<std::string> specs, accesses;
    std::string out, name, dtype, vector, runTimeout;
    bool sweep = false, store = false, noNcu = false;
};

int probeRequest(const CLI::App& sub, const ProbeArgs& a) {
    const std::vector<std::string>& specs = a.specs;
    const std::vector<std::string>& accesses = a.accesses;
    const std::string& out = a.out;
    const std::string& name = a.name;
    const bool sweep = a.sweep;
    ts::ProbeRequestInput base;
    if (!a.dtype.empty()) base.dtype = a.dtype;
    if (!a.vector.empty()) base.vector = cli::parseCount("--vector", a.vector);
    base.store = a.store;
    if (a.noNcu) base.ncu = false;
    if (!a.runTimeout.empty()) {
        base.runTimeoutS = cli::parseCount("--run-timeout", a.runTimeout);
        if (base.runTimeoutS < 1 || base.runTimeoutS > 86400)
            throw ts::InputError("--run-timeout expects seconds in 1..86400, got '" + a.runTimeout +
                                 "'");
    }
    // One request names one layout; a sweep takes any number.
    if (!sweep && specs.size() > 1) cli::badUsage(sub, "unexpected argument '" + specs[1] + "'");
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
}

cli::Run declareProbeRequest(CLI::App& sub) {
    auto a = std::make_shared<ProbeArgs>();
    sub.add_option("SPEC", a->specs,
                   "the shared layout: mapping text, FILE.json[:NAME] (FILE.json alone: the "
                   "active layout; with --sweep, every layout of the project)")
        ->required();
    sub.add_option("--access", a->accesses, "the access pattern (several with --sweep)")
        ->required()
        ->type_name("ACCESS")
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    sub.add_option("--dtype", a->dtype, "element type of the tile")->type_name("DTYPE");
    sub.add_option("--vector", a->vector, "elements per lane access")->type_name("N");
    sub.add_flag("--store", a->store, "a store rather than a load");
    sub.add_option("--name", a->name, "the layout's name in the request")->type_name("NAME");
    sub.add_flag("--no-ncu", a->noNcu, "time only, without Nsight Compute counters");
    sub.add_option("--run-timeout", a->runTimeout, "seconds the probe may run (1..86400)")
        ->type_name("S");
    sub.add_option("-o,--out", a->out, "write the request to FILE rather than stdout")
        ->type_name("FILE");
    sub.add_flag("--sweep", a->sweep, "every SPEC x every --access as one sweep file");
    return [a, &sub] { return probeRequest(sub, *a); };
}

cli::Register r({"probe-request",
                 "write the tilescope-probe request the GUI's Run button would send (same plan, "
                 "same round-trip tile); --sweep: every SPEC (every layout of a project file) x "
                 "every --access, as one sweep file for tilescope-probe --sweep",
                 declareProbeRequest});

} // namespace
