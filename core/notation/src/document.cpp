// SPDX-License-Identifier: Apache-2.0
#include "tilescope/notation/document.h"

#include "tilescope/support/limits.h"

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

namespace ts {

using nlohmann::json;

DocumentError::DocumentError(const std::string& file, const std::string& path,
                             const std::string& message)
    : std::runtime_error((file.empty() ? "" : file + ": ") + (path.empty() ? "" : path + ": ") +
                         message),
      path_(path) {}

const DocLayout* Document::find(const std::string& name) const {
    for (const DocLayout& l : layouts)
        if (l.name == name) return &l;
    return nullptr;
}

namespace {

const char* kFormatName = "tilescope-project";

std::string getString(const json& o, const char* key, const std::string& path,
                      const std::string& file, bool required, const std::string& fallback = "") {
    auto it = o.find(key);
    if (it == o.end()) {
        if (required) throw DocumentError(file, path, std::string("missing \"") + key + "\"");
        return fallback;
    }
    if (!it->is_string()) throw DocumentError(file, path + "/" + key, "expected a string");
    return it->get<std::string>();
}

} // namespace

Document parseDocument(const std::string& text, const std::string& file) {
    json j;
    try {
        j = json::parse(text);
    } catch (const json::parse_error& e) {
        // nlohmann reports a byte offset; turn it into line:column for people.
        std::size_t off = e.byte ? e.byte - 1 : 0, line = 1, col = 1;
        for (std::size_t k = 0; k < off && k < text.size(); ++k) {
            if (text[k] == '\n') {
                ++line;
                col = 1;
            } else {
                ++col;
            }
        }
        throw DocumentError(file, "",
                            "not valid JSON at line " + std::to_string(line) + ", column " +
                                std::to_string(col));
    } catch (const json::exception& e) {
        // Well-formed text that nlohmann cannot hold, e.g. a number out of range (`1e400`).
        std::string what = e.what();
        if (const auto cut = what.find("] "); cut != std::string::npos) what.erase(0, cut + 2);
        throw DocumentError(file, "", "not valid JSON: " + what);
    }
    if (!j.is_object())
        throw DocumentError(file, "/", "expected a JSON object (a Tilescope project)");
    std::string format = getString(j, "format", "", file, true);
    if (format != kFormatName)
        throw DocumentError(file, "/format",
                            "\"" + format + "\" is not a Tilescope project (expected \"" +
                                kFormatName + "\")");
    auto v = j.find("version");
    if (v == j.end() || !v->is_number_integer())
        throw DocumentError(file, "/version", "missing or not an integer");
    if (v->get<int>() > Document::kFormatVersion)
        throw DocumentError(file, "/version",
                            "format version " + std::to_string(v->get<int>()) +
                                " is newer than this Tilescope understands (" +
                                std::to_string(Document::kFormatVersion) + "); please upgrade");
    if (v->get<int>() < 1) throw DocumentError(file, "/version", "invalid version");
    Document d;
    d.title = getString(j, "title", "", file, false);
    auto ls = j.find("layouts");
    if (ls == j.end() || !ls->is_array())
        throw DocumentError(file, "/layouts", "missing or not an array");
    for (std::size_t k = 0; k < ls->size(); ++k) {
        const json& o = (*ls)[k];
        std::string p = "/layouts/" + std::to_string(k);
        if (!o.is_object()) throw DocumentError(file, p, "expected an object");
        DocLayout l;
        l.name = getString(o, "name", p, file, true);
        l.text = getString(o, "text", p, file, true);
        if (l.text.size() > limits::kMaxTextLength)
            throw DocumentError(file, p + "/text", "mapping text too long");
        l.notes = getString(o, "notes", p, file, false);
        l.caption = getString(o, "caption", p, file, false);
        if (auto an = o.find("analysis"); an != o.end()) {
            const std::string ap = p + "/analysis";
            if (!an->is_object()) throw DocumentError(file, ap, "expected an object");
            AnalysisSettings& a = l.analysis;
            a.panel = getString(*an, "panel", ap, file, true);
            if (a.panel != "banks" && a.panel != "fractal")
                throw DocumentError(file, ap + "/panel", "expected \"banks\" or \"fractal\"");
            a.dtype = getString(*an, "dtype", ap, file, false, "float16");
            // Only the named panel's own fields are read: those of the other panel (a "step" on
            // a fractal analysis, a "fractal" on a banks one) are ignored like any unknown key.
            // Keeping them would hold settings that the panel never uses and that the next save
            // drops, so a save and reload would change the document.
            if (a.panel == "fractal") {
                a.fractal = getString(*an, "fractal", ap, file, false, "zN");
                // Both conventions (fractal.h): CATLASS zN/nZ/zZ/L0C, tilelang-ascend NZ/ZN/ZZ.
                static const char* kKinds[] = {"zN", "nZ", "zZ", "L0C", "NZ",
                                               "ZN", "ZZ", "zz", "l0c"};
                if (std::find(std::begin(kKinds), std::end(kKinds), a.fractal) == std::end(kKinds))
                    throw DocumentError(file, ap + "/fractal",
                                        "expected zN, nZ, zZ or L0C (CATLASS) or NZ, ZN, ZZ "
                                        "(tilelang-ascend)");
            } else {
                a.access = getString(*an, "access", ap, file, true);
                auto integer = [&](const char* key, int lo, int hi, int fallback) {
                    auto it = an->find(key);
                    if (it == an->end()) return fallback;
                    if (!it->is_number_integer())
                        throw DocumentError(file, ap + "/" + key, "expected an integer");
                    const auto v = it->get<std::int64_t>();
                    if (v < lo || v > hi)
                        throw DocumentError(file, ap + "/" + key,
                                            "out of range [" + std::to_string(lo) + ", " +
                                                std::to_string(hi) + "]");
                    return int(v);
                };
                a.vector = integer("vector", 0, 16, 0);
                a.step = integer("step", -1, 1 << 30, -1);
                if (auto st = an->find("store"); st != an->end()) {
                    if (!st->is_boolean())
                        throw DocumentError(file, ap + "/store", "expected true or false");
                    a.store = st->get<bool>();
                }
            }
        }
        if (auto vw = o.find("view"); vw != o.end()) {
            if (!vw->is_object()) throw DocumentError(file, p + "/view", "expected an object");
            l.view.view = getString(*vw, "view", p + "/view", file, false, "input");
            if (l.view.view != "input" && l.view.view != "output")
                throw DocumentError(file, p + "/view/view", "expected \"input\" or \"output\"");
            l.view.color = getString(*vw, "color", p + "/view", file, false, "thread");
            if (l.view.color != "thread" && l.view.color != "warp" && l.view.color != "slot" &&
                l.view.color != "replica")
                throw DocumentError(file, p + "/view/color",
                                    "expected thread, warp, slot or replica");
            if (auto z = vw->find("zoom"); z != vw->end()) {
                if (!z->is_number())
                    throw DocumentError(file, p + "/view/zoom", "expected a number");
                l.view.zoom = z->get<double>();
                if (!(l.view.zoom > 0.01 && l.view.zoom < 1000))
                    throw DocumentError(file, p + "/view/zoom", "out of range");
            }
        }
        d.layouts.push_back(std::move(l));
    }
    if (auto r = j.find("runs"); r != j.end()) {
        if (!r->is_array()) throw DocumentError(file, "/runs", "expected an array of runs");
        for (std::size_t k = 0; k < r->size(); ++k)
            if (!(*r)[k].is_object())
                throw DocumentError(file, "/runs/" + std::to_string(k), "expected an object");
        if (!r->empty()) d.runs = r->dump();
    }
    if (auto a = j.find("active"); a != j.end()) {
        if (!a->is_number_integer()) throw DocumentError(file, "/active", "expected an integer");
        d.active = a->get<int>();
        if (d.active < 0 || (d.active >= static_cast<int>(d.layouts.size()) && !d.layouts.empty()))
            throw DocumentError(file, "/active", "index out of range");
    }
    return d;
}

std::string serializeDocument(const Document& d) {
    json j;
    j["format"] = kFormatName;
    j["version"] = Document::kFormatVersion;
    if (!d.title.empty()) j["title"] = d.title;
    j["active"] = d.active;
    json ls = json::array();
    for (const DocLayout& l : d.layouts) {
        json o{{"name", l.name},
               {"text", l.text},
               {"view", {{"view", l.view.view}, {"color", l.view.color}, {"zoom", l.view.zoom}}}};
        if (!l.notes.empty()) o["notes"] = l.notes;
        if (!l.caption.empty()) o["caption"] = l.caption;
        if (!l.analysis.empty()) {
            const AnalysisSettings& a = l.analysis;
            json an{{"panel", a.panel}, {"dtype", a.dtype}};
            if (a.panel == "banks") {
                an["access"] = a.access;
                if (a.vector) an["vector"] = a.vector;
                if (a.store) an["store"] = true;
                an["step"] = a.step;
            } else {
                an["fractal"] = a.fractal;
            }
            o["analysis"] = std::move(an);
        }
        ls.push_back(std::move(o));
    }
    j["layouts"] = std::move(ls);
    if (!d.runs.empty()) j["runs"] = json::parse(d.runs);
    return j.dump(2) + "\n";
}

Document loadDocumentFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw DocumentError(path, "", "cannot open file");
    in.seekg(0, std::ios::end);
    auto size = static_cast<std::int64_t>(in.tellg());
    if (size > 64 * 1024 * 1024)
        throw DocumentError(path, "", "file is larger than 64 MiB; not a project file");
    in.seekg(0);
    std::stringstream ss;
    ss << in.rdbuf();
    return parseDocument(ss.str(), path);
}

std::string resolveSpecText(const std::string& spec) {
    // FILE.json or FILE.json:NAME; anything else is mapping text.
    auto pos = spec.find(".json");
    if (pos == std::string::npos || spec.find('(') != std::string::npos) return spec;
    std::string file = spec.substr(0, pos + 5);
    std::string name;
    if (pos + 5 < spec.size()) {
        if (spec[pos + 5] != ':') return spec;
        name = spec.substr(pos + 6);
    }
    Document d = loadDocumentFile(file);
    if (d.layouts.empty()) throw DocumentError(file, "/layouts", "the project has no layouts");
    if (name.empty()) return d.layouts[static_cast<std::size_t>(d.active)].text;
    if (const DocLayout* l = d.find(name)) return l->text;
    std::string names;
    for (const auto& l : d.layouts)
        names += (names.empty() ? "" : ", ") + l.name;
    throw DocumentError(file, "", "no layout named \"" + name + "\" (has: " + names + ")");
}

} // namespace ts
