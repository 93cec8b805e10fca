// SPDX-License-Identifier: Apache-2.0
#include "builtins_impl.h"

#include <map>

namespace ts {

namespace {

const std::map<std::string, int>& dtypeTable() {
    static const std::map<std::string, int> t{{"float64", 64},
                                              {"float32", 32},
                                              {"tfloat32", 32},
                                              {"float16", 16},
                                              {"bfloat16", 16},
                                              {"float8_e4m3", 8},
                                              {"float8_e5m2", 8},
                                              {"float8_e4m3fn", 8},
                                              {"float4_e2m1fn", 4},
                                              {"float8_e4m3fnuz", 8},
                                              {"float8_e5m2fnuz", 8},
                                              {"float8_e8m0fnu", 8},
                                              {"int64", 64},
                                              {"int32", 32},
                                              {"int16", 16},
                                              {"int8", 8},
                                              {"uint64", 64},
                                              {"uint32", 32},
                                              {"uint16", 16},
                                              {"uint8", 8},
                                              {"int4", 4},
                                              {"fp64", 64},
                                              {"fp32", 32},
                                              {"fp16", 16},
                                              {"bf16", 16},
                                              {"fp8", 8},
                                              {"half", 16},
                                              {"float", 32},
                                              {"e4m3_float8", 8},
                                              {"e5m2_float8", 8}};
    return t;
}

} // namespace

int dtypeBits(const std::string& dtype) {
    auto it = dtypeTable().find(dtype);
    if (it == dtypeTable().end())
        throw InputError("unknown dtype \"" + dtype + "\" (e.g. float16, float32, int8)");
    return it->second;
}

std::vector<std::string> knownDtypes() {
    return {"float16", "bfloat16", "float32", "tfloat32", "float64", "float8_e4m3", "float8_e5m2",
            "int8",    "uint8",    "int16",   "int32",    "int64",   "int4"};
}

std::int64_t BuiltinArgs::integer(const std::string& n) const {
    return std::get<std::int64_t>(values.at(n));
}
bool BuiltinArgs::boolean(const std::string& n) const {
    return std::get<bool>(values.at(n));
}
const std::string& BuiltinArgs::string(const std::string& n) const {
    return std::get<std::string>(values.at(n));
}
const Shape& BuiltinArgs::shape(const std::string& n) const {
    return std::get<Shape>(values.at(n));
}
int BuiltinArgs::dtypeBits(const std::string& n) const {
    return ts::dtypeBits(string(n));
}

const std::vector<Builtin>& builtins() {
    static const std::vector<Builtin> all = [] {
        std::vector<Builtin> v;
        builtin::registerSwizzles(v);
        builtin::registerFragments(v);
        builtin::registerGemm(v);
        builtin::registerAscend(v);
        builtin::registerAscendTileLang(v);
        return v;
    }();
    return all;
}

std::optional<std::string> unsupportedBuiltin(const std::string& name) {
    static const std::map<std::string, std::string> why{
        {"make_cutlass_metadata_layout",
         "the sparse-GEMM metadata layout (tilelang.layout.gemm_sp), which depends on CUTLASS "
         "tables per mma dtype and arch"},
        {"make_strided_slice", "it returns a strided buffer view, not a layout"},
        {"try_extract_fractal_layout", "it describes an Ascend layout, it does not make one"},
        {"make_mma_store_layout", "use make_gemm_c_fragment (what T.gemm gives on sm80)"},
        {"make_mfma_store_layout", "use make_mfma_c_fragment (what T.gemm gives on gfx942)"}};
    auto it = why.find(name);
    if (it == why.end()) return std::nullopt;
    return "TileLang's " + name + " is not supported by Tilescope: " + it->second;
}

const Builtin* findBuiltin(const std::string& name) {
    for (const Builtin& b : builtins())
        if (b.name == name) return &b;
    return nullptr;
}

std::string builtinSignature(const Builtin& b) {
    std::string s = b.name + "(";
    for (std::size_t k = 0; k < b.params.size(); ++k) {
        s += (k ? ", " : "") + b.params[k].name;
        if (b.params[k].defaultText) s += "=" + *b.params[k].defaultText;
    }
    return s + ")";
}

} // namespace ts
