// SPDX-License-Identifier: Apache-2.0
// tvmSimplify is TVM's Analyzer::Simplify, ported rule by rule: the form it gives is the form
// TileLang prints for the thread map it stored (and then infers the register index from). The
// golden files record that printed form for every fragment TileLang built from a thread map, so
// each one is checked node for node here; the unit cases pin the rewrites the fidelity review
// named, with TileLang's printed form (tilelang 0.1.15) in the comment.
#include "golden_files.h"
#include "tilescope/lang/tvm_simplify.h"
#include "tilescope/notation/mapping.h"
#include "tilescope/support/errors.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace {

using nlohmann::json;

const std::vector<std::string> kPlaceholders = {"_i", "_j", "_k", "_rep"};

std::string tvmForm(const std::string& text, const std::map<std::string, std::int64_t>& ext) {
    ts::Expr e = ts::parseExpr(text, kPlaceholders, ts::ExprDialect::Python);
    return ts::printExpr(ts::tvmSimplify(e, ext).expr);
}

std::string tileLangForm(const std::string& printed) {
    return ts::printExpr(ts::parseExpr(printed, kPlaceholders, ts::ExprDialect::Printed));
}

TEST(TvmSimplify, RewritesTheFidelityReviewNamed) {
    const std::map<std::string, std::int64_t> e64{{"_i", 6}, {"_j", 4}, {"_rep", 1}};
    const std::map<std::string, std::int64_t> e16{{"_i", 16}, {"_j", 16}, {"_rep", 1}};
    // T.truncdiv of a non-negative sum splits like a floor division, the remainder kept.
    EXPECT_EQ(tvmForm("T.truncdiv(_i * 4 + _j, 2)", e64), tileLangForm("_i * 2 + T.Div(_j, 2)"));
    // max(x, y) + min(x, y) is x + y.
    EXPECT_EQ(tvmForm("T.max(_i, _j) + T.min(_i, _j)", e16), "_i + _j");
    // Products that cancel: i * (j + 1) - i * j is i.
    EXPECT_EQ(tvmForm("_i * (_j + 1) - _i * _j", e16), "_i");
    // x * a + x * y factors into one product, which index inference cannot split.
    EXPECT_EQ(tvmForm("_i * 4 + _i * _j", e16), tileLangForm("(_j + 4) * _i"));
    // (x + 1) % 2 + x % 2 is 1, even under a common factor.
    EXPECT_EQ(tvmForm("((_j + 1) % 2 + _j % 2) * 16", e16), "16");
    // x % 2 + x // 2 is (x + 1) // 2.
    EXPECT_EQ(tvmForm("(_j % 2 + _j // 2) * 3", e16), tileLangForm("(_j + 1) // 2 * 3"));
    // A shift by 0 is the value itself (TVM's shift builders return it).
    EXPECT_EQ(tvmForm("(_i >> 0) + T.shift_left(_j, 0) * 4", e16), "_j * 4 + _i");
    // A select whose condition the bounds decide is its branch.
    EXPECT_EQ(tvmForm("T.if_then_else(_i < 100, _j, _i)", e16), "_j");
}

// Every thread-only fragment of the golden files: the thread map written in the spec, simplified
// here, is node for node what TileLang printed for it.
TEST(TvmSimplify, GoldenThreadMapsTakeTileLangsPrintedForm) {
    std::size_t checked = 0, same = 0;
    std::vector<std::string> differ;
    for (const auto& file : tstest::goldenFiles()) {
        const json d = tstest::readGoldenFile(file);
        for (const json& c : d.at("cases")) {
            const std::string spec = c.at("spec");
            if (!c.contains("tilelang_forward_thread") ||
                spec.find("forward_index_fn") != std::string::npos)
                continue;
            // T.Fragment(SHAPE, forward_thread_fn=lambda P...: BODY[, replicate=R])
            const std::string key = "forward_thread_fn=lambda ";
            const auto at = spec.find(key);
            if (spec.rfind("T.Fragment(", 0) != 0 || at == std::string::npos) continue;
            const auto colon = spec.find(':', at);
            std::vector<std::string> params;
            std::string p = spec.substr(at + key.size(), colon - at - key.size());
            for (std::size_t s = 0; s < p.size();) {
                std::size_t e = p.find(',', s);
                std::string name = p.substr(s, e == std::string::npos ? std::string::npos : e - s);
                name.erase(0, name.find_first_not_of(' '));
                params.push_back(name);
                s = e == std::string::npos ? p.size() : e + 1;
            }
            std::size_t end = colon + 1;
            for (int depth = 0; end < spec.size(); ++end) {
                const char ch = spec[end];
                if (ch == '(' || ch == '[') ++depth;
                if ((ch == ')' || ch == ']') && depth-- == 0) break;
                if (ch == ',' && depth == 0) break;
            }
            const json& table = c.at("table");
            const auto shape = table.at("input_shape").get<std::vector<std::int64_t>>();
            std::map<std::string, std::int64_t> ext{{"_rep", table.value("replicate", 1)}};
            std::vector<std::string> names;
            for (std::size_t k = 0; k < shape.size(); ++k) {
                ext[kPlaceholders[k]] = shape[k];
                names.push_back(kPlaceholders[k]);
            }
            if (params.size() > shape.size()) names.push_back("_rep");
            if (params.size() != names.size()) continue;
            // The body read with the parameters renamed to TileLang's placeholders.
            ts::Expr raw = ts::parseExpr(spec.substr(colon + 1, end - colon - 1), params,
                                         ts::ExprDialect::Python);
            raw = ts::substitute(raw, [&](const std::string& n) -> ts::Expr {
                for (std::size_t k = 0; k < params.size(); ++k)
                    if (params[k] == n) return ts::var(names[k]);
                return nullptr;
            });
            ++checked;
            // Both read back through the same reader, which folds what TVM prints unfolded
            // (`T.bitwise_and(0, 7)`, the call of two constants, is 0 either way).
            const std::string mine = tileLangForm(ts::printExpr(ts::tvmSimplify(raw, ext).expr));
            const std::string theirs = tileLangForm(c.at("tilelang_forward_thread"));
            if (mine == theirs)
                ++same;
            else if (differ.size() < 20)
                differ.push_back(c.at("name").get<std::string>() + ": " + mine + " vs TileLang's " +
                                 theirs);
        }
    }
    for (const auto& d : differ)
        ADD_FAILURE() << d;
    EXPECT_GT(checked, 1000u);
    EXPECT_EQ(same, checked);
}

} // namespace
