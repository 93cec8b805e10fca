// SPDX-License-Identifier: Apache-2.0
#include "devices.h"

#include "tilescope/support/errors.h"

#include <algorithm>

using nlohmann::json;

namespace tsprobe {

std::vector<int> parseDevices(const std::string& arg, int count) {
    const std::string has =
        " (this machine has " + std::to_string(count) + " GPU" + (count == 1 ? "" : "s") + ")";
    if (arg == "all") {
        std::vector<int> all(std::size_t(std::max(count, 0)));
        for (int i = 0; i < count; ++i)
            all[std::size_t(i)] = i;
        return all;
    }
    std::vector<int> out;
    std::size_t start = 0;
    while (start <= arg.size()) {
        const std::size_t comma = std::min(arg.find(',', start), arg.size());
        const std::string item = arg.substr(start, comma - start);
        if (item.empty() || item.size() > 4 ||
            !std::all_of(item.begin(), item.end(), [](char c) { return c >= '0' && c <= '9'; }))
            throw ts::InputError("--devices: '" + item +
                                 "' is not a device number (expected all or 0,1,...)");
        const int d = std::stoi(item);
        if (d >= count) throw ts::InputError("--devices: there is no GPU " + item + has);
        if (std::find(out.begin(), out.end(), d) != out.end())
            throw ts::InputError("--devices: GPU " + item + " is named twice");
        out.push_back(d);
        start = comma + 1;
    }
    return out;
}

std::vector<std::vector<std::size_t>> splitPatterns(std::size_t patterns, std::size_t devices) {
    std::vector<std::vector<std::size_t>> out(std::max<std::size_t>(devices, 1));
    for (std::size_t i = 0; i < patterns; ++i)
        out[i % out.size()].push_back(i);
    return out;
}

json mergeWorkerAnswers(const std::vector<WorkerAnswer>& answers, std::size_t patterns) {
    json merged = {{"ok", false}, {"devices", json::array()}};
    std::vector<json> jobs(patterns, json{{"ok", false}, {"error", "not run"}});
    std::string firstError;
    for (const WorkerAnswer& a : answers) {
        json dev = a.out.value("device", json::object());
        dev["index"] = a.device;
        dev["patterns"] = a.patterns;
        dev["seconds_run"] = a.seconds;
        const bool ok = a.out.value("ok", false);
        dev["ok"] = ok;
        const json results = a.out.value("jobs", json::array());
        if (!ok) {
            const std::string why =
                "GPU " + std::to_string(a.device) + ": " +
                a.out.value("error", std::string("the worker failed without a message"));
            dev["error"] = why;
            if (firstError.empty()) firstError = why;
        } else if (!merged.contains("device")) {
            merged["device"] = a.out["device"];
        }
        for (std::size_t k = 0; k < a.patterns.size(); ++k) {
            const std::size_t i = a.patterns[k];
            if (i >= patterns) continue;
            if (ok && k < results.size())
                jobs[i] = results[k];
            else if (ok)
                jobs[i] = {{"ok", false},
                           {"error", "GPU " + std::to_string(a.device) + ": no result"}};
            else
                jobs[i] = {{"ok", false}, {"error", dev["error"]}};
            jobs[i]["device_index"] = a.device;
        }
        merged["ok"] = merged["ok"].get<bool>() || ok;
        merged["devices"].push_back(dev);
    }
    merged["jobs"] = jobs;
    if (!merged["ok"].get<bool>())
        merged["error"] = firstError.empty() ? std::string("no GPU worker ran") : firstError;
    return merged;
}

} // namespace tsprobe
