// SPDX-License-Identifier: Apache-2.0
#include "tilescope/device/measurements.h"

#include "tilescope/device/run_prepare.h"
#include "tilescope/support/errors.h"

namespace ts {

using nlohmann::json;

namespace {

std::string str(const json& o, const char* k) {
    auto it = o.find(k);
    return it != o.end() && it->is_string() ? it->get<std::string>() : std::string();
}
double num(const json& o, const char* k, double fallback = -1) {
    auto it = o.find(k);
    return it != o.end() && it->is_number() ? it->get<double>() : fallback;
}

Measurement fromPattern(const json& p, const json& top, const std::string& where) {
    Measurement m;
    m.name = str(p, "name");
    if (!p.contains("request") || !p["request"].is_object())
        throw InputError(where + ": no \"request\" in the result (written by a tilescope-probe "
                                 "older than its request echo; rerun the request)");
    m.request = p["request"];
    const json spec = m.request.value("spec", json::object());
    m.layout = str(spec, "layout");
    m.mapping = str(spec, "mapping");
    m.dtype = str(spec, "dtype");
    m.access = str(spec, "access");
    m.vector = int(num(spec, "vector", 0));
    m.store = spec.value("store", false);
    const json ncu = p.value("ncu_1warp", json::object());
    const json timing = p.value("timing", json::object());
    const json dev = p.contains("device") ? p["device"] : top.value("device", json::object());
    m.device = str(dev, "name");
    m.device_index = int(num(p, "device_index", -1));
    m.driver = str(top, "driver");
    m.ncu_version = str(top, "ncu_version");
    m.date = str(top, "date");
    const json pred = p.value("predicted", json::object()).value("total", json::object());
    const double instr = num(pred, "load_instructions", 0) + num(pred, "store_instructions", 0);
    if (instr > 0) m.predicted_wf = num(pred, "wavefronts", 0) / instr;
    m.measured_wf = num(ncu, "measured_wavefronts_per_instruction");
    m.cycles_per_instr = num(timing, "cycles_per_instruction_per_sm");
    const double clock_khz = num(dev, "clock_khz", 0);
    if (m.cycles_per_instr >= 0 && clock_khz > 0)
        m.ns_per_instr = m.cycles_per_instr * 1e6 / clock_khz;
    m.ns_per_wavefront = num(timing, "ns_per_wavefront_per_sm");
    if (p.contains("roundtrip"))
        m.roundtrip = p["roundtrip"].value("pass", false) ? "pass" : "fail";
    m.error = str(p, "error");
    const bool ran = p.contains("timing") && m.error.empty();
    m.ok = ran && m.roundtrip == "pass" && (ncu.empty() || ncu.value("agree", false));
    if (!ran)
        m.verdict = m.error.empty() ? str(top, "error") : m.error;
    else if (m.measured_wf < 0)
        m.verdict = "timed (ncu not run: predicted only)";
    else
        m.verdict = ncu.value("agree", false) ? "agree" : "differs";
    if (m.verdict.empty()) m.verdict = "not run";
    return m;
}

} // namespace

std::vector<Measurement> readProbeResult(const std::string& text, const std::string& file) {
    json j;
    try {
        j = json::parse(text);
    } catch (const json::exception&) {
        throw InputError(file + ": not JSON, so not a tilescope-probe result");
    }
    if (!j.is_object() || (!j.contains("predicted") && !j.contains("patterns")))
        throw InputError(file + ": not a tilescope-probe result (no \"predicted\" or "
                                "\"patterns\"; a probe request or a project file?)");
    std::vector<Measurement> out;
    if (j.contains("patterns")) {
        if (!j["patterns"].is_array()) throw InputError(file + ": \"patterns\" is not an array");
        for (std::size_t i = 0; i < j["patterns"].size(); ++i) {
            const json& p = j["patterns"][i];
            if (!p.is_object() || !p.contains("predicted"))
                throw InputError(file + ": patterns[" + std::to_string(i) +
                                 "] is not a probe result (a request file?)");
            out.push_back(fromPattern(p, j, file + ": patterns[" + std::to_string(i) + "]"));
        }
    } else {
        out.push_back(fromPattern(j, j, file));
    }
    return out;
}

std::string measurementMismatch(const Measurement& m, const std::string& layoutName,
                                const std::string& mappingText) {
    if (m.access.empty() || m.dtype.empty())
        return "'" + m.name + "' names no layout spec (its request was not written by Tilescope)";
    ProbeRequestInput in;
    in.layoutName = layoutName;
    in.mappingText = mappingText;
    in.dtype = m.dtype;
    in.access = m.access;
    in.vector = m.vector;
    in.store = m.store;
    PreparedRun r;
    try {
        r = probeRequestFor(in);
    } catch (const std::exception& e) {
        return "'" + m.name + "' cannot be rebuilt on '" + layoutName + "': " + e.what();
    }
    if (r.request["plan"] != m.request.value("plan", json()))
        return "'" + m.name + "' measured other shared-memory addresses than '" + layoutName +
               "' gives for " + m.access + " (" + m.dtype +
               "): the result belongs to another layout, or this one was edited since";
    if (r.request["tile"] != m.request.value("tile", json()))
        return "'" + m.name + "' measured a different tile than '" + layoutName + "' (" + m.dtype +
               ")";
    return {};
}

} // namespace ts
