// SPDX-License-Identifier: Apache-2.0
// TTGIR text as Triton prints it: `tensor<64x16xf16, #ttg.blocked<{...}>>`,
// `!ttg.memdesc<64x64xf16, #shared, #smem, mutable>`, bare `#ttg.linear<{...}>` /
// `#ttg.shared_linear<{...}>` attributes, and the alias definitions a dump starts with
// (`#blocked = #ttg.blocked<{...}>`), resolved wherever they are pasted. Each attribute becomes
// the Gluon layout it prints from (the same fields under MLIR's names), so it is converted by
// the code that converts Gluon's constructors, for the tensor's shape.
#include "interop_value.h"
#include "tilescope/notation/linear_layout.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <map>

namespace ts::interop {

namespace {

bool identChar(char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '.' || ch == '$';
}

// What Triton's prints of the attributes Tilescope does not read are, for the message.
std::string unreadKind(const std::string& name) {
    static const std::map<std::string, std::string> kinds = {
        {"ttg.amd_mfma", "an AMD MFMA layout"},
        {"ttg.amd_wmma", "an AMD WMMA layout"},
        {"ttg.padded_shared", "a padded shared layout"},
        {"ttg.partitioned_shared", "a partitioned shared layout"},
        {"ttg.amd_rotating_shared", "an AMD rotating shared layout"},
        {"ttng.tensor_memory_encoding", "a Blackwell tensor memory layout"},
        {"ttng.tensor_memory_scales_encoding", "a Blackwell tensor memory scales layout"},
        {"ttg.shared_memory", "the shared memory space (not a layout)"},
        {"ttng.tensor_memory", "the tensor memory space (not a layout)"},
    };
    auto it = kinds.find(name);
    return it != kinds.end() ? it->second : "an attribute";
}

class MlirReader {
public:
    explicit MlirReader(std::string_view text) : text_(text), cur_(text) {}

    linear::LinearLayout read() {
        collectAliases();
        // What is left once the definitions are set aside: one type or attribute.
        skip();
        if (pos_ >= text_.size()) {
            if (lastAlias_.empty()) fail(pos_, "expected a TTGIR type or attribute");
            // Only definitions: the last one is the subject.
            pos_ = aliases_.at(lastAlias_).first;
        }
        const std::size_t start = pos_;
        linear::LinearLayout l;
        if (startsHere("tensor<")) {
            l = tensorType();
        } else if (startsHere("!")) {
            l = memdescType();
        } else if (startsHere("#")) {
            Value attr = attribute(0);
            l = bare(attr, start);
        } else if (startsHere("module") || startsHere("tt.func") || startsHere("%")) {
            fail(pos_, "this is TTGIR code, not one type: Tilescope reads one type from a dump "
                       "(tensor<128x64xf16, #blocked> or !ttg.memdesc<...>), pasted with the alias "
                       "definitions (#blocked = ...) it uses");
        } else {
            fail(pos_, "expected a TTGIR type (tensor<...>, !ttg.memdesc<...>) or attribute "
                       "(#ttg....<...>), found " +
                           here());
        }
        skip();
        if (pos_ < text_.size())
            fail(pos_, "unexpected " + here() +
                           " after the type; Tilescope reads one TTGIR type or attribute (with "
                           "the alias definitions it uses)");
        return l;
    }

private:
    [[noreturn]] void fail(std::size_t pos, const std::string& m) { cur_.failAt(pos + 1, m); }

    std::string here() const {
        if (pos_ >= text_.size()) return "the end of the text";
        return std::string("'") + text_[pos_] + "'";
    }

    // Whitespace, `//` comments and the definition lines already collected.
    void skip() {
        for (;;) {
            while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_])))
                ++pos_;
            if (text_.substr(pos_, 2) == "//") {
                while (pos_ < text_.size() && text_[pos_] != '\n')
                    ++pos_;
                continue;
            }
            auto it = defSpans_.find(pos_);
            if (it != defSpans_.end() && !inAlias_) {
                pos_ = it->second;
                continue;
            }
            return;
        }
    }

    bool startsHere(std::string_view p) {
        skip();
        return text_.substr(pos_, p.size()) == p;
    }

    bool accept(char ch) {
        skip();
        if (pos_ < text_.size() && text_[pos_] == ch) {
            ++pos_;
            return true;
        }
        return false;
    }

    void expect(char ch, const std::string& context) {
        if (!accept(ch))
            fail(pos_, std::string("expected '") + ch + "' " + context + ", found " + here());
    }

    std::string ident() {
        skip();
        std::size_t s = pos_;
        while (pos_ < text_.size() && identChar(text_[pos_]))
            ++pos_;
        return std::string(text_.substr(s, pos_ - s));
    }

    std::int64_t integer() {
        skip();
        std::size_t s = pos_;
        bool neg = pos_ < text_.size() && text_[pos_] == '-';
        if (neg) ++pos_;
        if (pos_ >= text_.size() || !std::isdigit(static_cast<unsigned char>(text_[pos_])))
            fail(s, "expected an integer, found " + here());
        std::int64_t v = 0;
        while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
            v = v * 10 + (text_[pos_++] - '0');
            if (v > kMaxLiteral) fail(s, "integer too large");
        }
        return neg ? -v : v;
    }

    // The end of a balanced `<...>` starting at pos (which is at '<').
    std::size_t balancedEnd(std::size_t p) {
        int depth = 0;
        for (; p < text_.size(); ++p) {
            if (text_[p] == '<') ++depth;
            if (text_[p] == '>' && depth > 0 && p > 0 && text_[p - 1] != '-' && --depth == 0)
                return p + 1;
        }
        fail(p, "'<' is never closed");
    }

    // Lines `#name = ...` and `!name = ...` anywhere in the text (a dump defines aliases at its
    // top; a user may paste them below the type).
    void collectAliases() {
        std::size_t p = 0;
        while (p < text_.size()) {
            std::size_t lineStart = p;
            while (p < text_.size() && (text_[p] == ' ' || text_[p] == '\t'))
                ++p;
            if (p < text_.size() && (text_[p] == '#' || text_[p] == '!')) {
                std::size_t q = p + 1;
                while (q < text_.size() && identChar(text_[q]) && text_[q] != '.')
                    ++q;
                std::size_t nameEnd = q;
                while (q < text_.size() && (text_[q] == ' ' || text_[q] == '\t'))
                    ++q;
                if (nameEnd > p + 1 && q < text_.size() && text_[q] == '=' &&
                    (nameEnd == text_.size() || text_[nameEnd] != '.')) {
                    std::string name(text_.substr(p, nameEnd - p));
                    std::size_t valueStart = q + 1;
                    while (valueStart < text_.size() &&
                           (text_[valueStart] == ' ' || text_[valueStart] == '\t'))
                        ++valueStart;
                    std::size_t e = text_.find('\n', valueStart);
                    if (e == std::string_view::npos) e = text_.size();
                    if (aliases_.count(name)) fail(p, name + " is defined twice");
                    aliases_[name] = {valueStart, e};
                    defSpans_[lineStart] = e;
                    defSpans_[p] = e;
                    lastAlias_ = name;
                }
            }
            std::size_t e = text_.find('\n', p);
            p = e == std::string_view::npos ? text_.size() : e + 1;
        }
    }

    // `#name` or `!name` defined by one of the pasted lines: read its definition in place.
    template <class F> auto resolve(const std::string& name, std::size_t at, F&& read) {
        auto it = aliases_.find(name);
        if (it == aliases_.end())
            fail(at, name + " is an alias a TTGIR dump defines at its top (`" + name +
                         " = ...`); paste that definition line with the type");
        if (++aliasDepth_ > 8) fail(at, "aliases nested too deeply");
        std::size_t save = pos_;
        bool saveIn = inAlias_;
        pos_ = it->second.first;
        inAlias_ = true;
        auto v = read();
        skip();
        if (pos_ < it->second.second)
            fail(pos_, "unexpected " + here() + " in the definition of " + name);
        pos_ = save;
        inAlias_ = saveIn;
        --aliasDepth_;
        return v;
    }

    // A parameter value: integer, list, true/false, nested attribute or `{key = value}`.
    Value value(std::size_t depth) {
        if (depth > 32) fail(pos_, "values nested too deeply");
        skip();
        Value v;
        v.column = pos_ + 1;
        if (accept('[')) {
            v.kind = Value::List;
            if (!accept(']')) {
                do
                    v.items.push_back(value(depth + 1));
                while (accept(','));
                expect(']', "to close the list");
            }
            return v;
        }
        if (accept('{')) {
            v.kind = Value::Dict;
            if (!accept('}')) {
                do {
                    std::string key = ident();
                    if (key.empty()) fail(pos_, "expected a parameter name, found " + here());
                    expect('=', "after " + key);
                    v.fields.push_back({key, value(depth + 1)});
                } while (accept(','));
                expect('}', "to close the parameters");
            }
            return v;
        }
        if (pos_ < text_.size() && text_[pos_] == '#') return attribute(depth + 1);
        if (pos_ < text_.size() &&
            (text_[pos_] == '-' || std::isdigit(static_cast<unsigned char>(text_[pos_])))) {
            v.kind = Value::Int;
            v.i = integer();
            return v;
        }
        v.kind = Value::Name;
        v.name = ident();
        if (v.name.empty()) fail(pos_, "unexpected " + here());
        return v;
    }

    // `#ttg.kind<{...}>` (or an alias of one) as the Gluon layout call it prints from.
    Value attribute(std::size_t depth) {
        skip();
        const std::size_t at = pos_;
        if (!accept('#')) fail(pos_, "expected a layout attribute (#ttg....), found " + here());
        std::string name = ident();
        if (name.empty()) fail(at, "expected an attribute name after '#'");
        if (name.find('.') == std::string::npos)
            return resolve("#" + name, at, [&] { return attribute(depth + 1); });
        Value params;
        params.kind = Value::Dict;
        std::vector<Field> extra;
        if (pos_ < text_.size() && text_[pos_] == '<') {
            const std::size_t end = balancedEnd(pos_);
            static const char* read[] = {
                "ttg.blocked",      "ttg.nvidia_mma",      "ttg.dot_op",
                "ttg.slice",        "ttg.linear",          "ttg.shared_linear",
                "ttg.nvmma_shared", "ttg.swizzled_shared", "ttg.generic_linear"};
            if (std::find(std::begin(read), std::end(read), name) == std::end(read)) {
                pos_ = end;
                return unread(name, at);
            }
            ++pos_;
            params = value(depth + 1);
            if (params.kind != Value::Dict)
                fail(params.column - 1, "expected {key = value, ...} in #" + name + "<...>");
            while (accept(',')) {
                std::string key = ident();
                expect('=', "after " + key);
                params.fields.push_back({key, value(depth + 1)});
            }
            expect('>', "to close #" + name + "<");
        } else {
            return unread(name, at); // `#ttg.shared_memory` and other parameterless ones
        }
        return gluonCall(name, params, at);
    }

    Value unread(const std::string& name, std::size_t at) {
        Value v;
        v.kind = Value::Name;
        v.name = "#" + name;
        v.column = at + 1;
        return v;
    }

    [[noreturn]] void notRead(const Value& v) {
        const std::string name = v.name.substr(1);
        fail(v.column - 1, "this is Triton's print of " + unreadKind(name) + " (" + v.name +
                               "), which Tilescope does not read yet");
    }

    // MLIR's parameter names to Gluon's, field by field; an unknown one is named.
    Value gluonCall(const std::string& name, const Value& params, std::size_t at) {
        struct Map {
            const char* mlir;
            const char* gluon;
        };
        std::vector<Map> fields;
        Value call;
        call.kind = Value::Call;
        call.column = at + 1;
        if (name == "ttg.blocked") {
            call.name = "BlockedLayout";
            fields = {{"sizePerThread", "size_per_thread"},
                      {"threadsPerWarp", "threads_per_warp"},
                      {"warpsPerCTA", "warps_per_cta"},
                      {"order", "order"},
                      {"CGALayout", "cga_layout"}};
        } else if (name == "ttg.nvidia_mma") {
            call.name = "NVMMADistributedLayout";
            fields = {{"warpsPerCTA", "warps_per_cta"},
                      {"instrShape", "instr_shape"},
                      {"CGALayout", "cga_layout"}};
        } else if (name == "ttg.dot_op") {
            call.name = "DotOperandLayout";
            fields = {{"opIdx", "operand_index"}, {"parent", "parent"}, {"kWidth", "k_width"}};
        } else if (name == "ttg.slice") {
            call.name = "SliceLayout";
            fields = {{"dim", "dim"}, {"parent", "parent"}};
        } else if (name == "ttg.linear" || name == "ttg.generic_linear") {
            // generic_linear: Triton's print of a linear layout that is not a permutation
            // (bases with several bits, registers that repeat one another).
            call.name = name == "ttg.linear" ? "DistributedLinearLayout" : "GenericLinearLayout";
            fields = {{"register", "reg_bases"},
                      {"lane", "lane_bases"},
                      {"warp", "warp_bases"},
                      {"block", "block_bases"}};
        } else if (name == "ttg.shared_linear") {
            call.name = "SharedLinearLayout";
            fields = {
                {"offset", "offset_bases"}, {"block", "block_bases"}, {"alignment", "alignment"}};
        } else if (name == "ttg.nvmma_shared") {
            call.name = "NVMMASharedLayout";
            fields = {{"swizzlingByteWidth", "swizzle_byte_width"},
                      {"elementBitWidth", "element_bitwidth"},
                      {"transposed", "transposed"},
                      {"fp4Padded", "fp4_padded"},
                      {"CGALayout", "cga_layout"}};
        } else {
            call.name = "SwizzledSharedLayout";
            fields = {{"vec", "vec"},
                      {"perPhase", "per_phase"},
                      {"maxPhase", "max_phase"},
                      {"order", "order"},
                      {"CGALayout", "cga_layout"}};
        }
        Value version;
        version.kind = Value::List;
        version.column = call.column;
        for (const Field& f : params.fields) {
            if (f.value.kind == Value::Name && !f.value.name.empty() && f.value.name[0] == '#')
                notRead(f.value);
            if (name == "ttg.nvidia_mma" && (f.key == "versionMajor" || f.key == "versionMinor")) {
                version.items.push_back(f.value);
                continue;
            }
            auto m = std::find_if(fields.begin(), fields.end(),
                                  [&](const Map& x) { return f.key == x.mlir; });
            if (m == fields.end())
                fail(f.value.column - 1, "#" + name + " has a parameter '" + f.key +
                                             "' that Tilescope does not read yet");
            call.fields.push_back({m->gluon, f.value});
        }
        if (name == "ttg.nvidia_mma") call.fields.push_back({"version", version});
        if (name == "ttg.dot_op" && !call.field("k_width")) {
            Value zero; // Triton leaves kWidth out of the print when it is 0 (FMA operands)
            zero.column = call.column;
            call.fields.push_back({"k_width", zero});
        }
        if (name == "ttg.linear" || name == "ttg.generic_linear") {
            // Out sizes from the bases, as Triton's parser infers them.
            std::vector<std::int64_t> sizes;
            for (const Field& f : call.fields)
                if (f.value.kind == Value::List)
                    for (const Value& b : f.value.items) {
                        if (b.kind != Value::List) continue;
                        sizes.resize(std::max(sizes.size(), b.items.size()), 1);
                        for (std::size_t o = 0; o < b.items.size(); ++o)
                            if (b.items[o].kind == Value::Int && b.items[o].i > 0)
                                sizes[o] = std::max<std::int64_t>(
                                    sizes[o], std::int64_t{1} << std::bit_width(
                                                  static_cast<std::uint64_t>(b.items[o].i)));
                    }
            Value shape;
            shape.kind = Value::List;
            shape.column = call.column;
            for (std::int64_t s : sizes) {
                Value x;
                x.i = s;
                x.column = call.column;
                shape.items.push_back(x);
            }
            call.fields.push_back({"shape", shape});
        }
        if (name == "ttg.shared_linear")
            call.fields.erase(std::remove_if(call.fields.begin(), call.fields.end(),
                                             [](const Field& f) { return f.key == "alignment"; }),
                              call.fields.end());
        return call;
    }

    // `64x16xf16`: the dims, then the element type up to the next top-level ','.
    std::vector<std::int64_t> dimsAndElement(std::size_t& column) {
        skip();
        column = pos_ + 1;
        std::vector<std::int64_t> dims;
        while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
            dims.push_back(integer());
            if (pos_ < text_.size() && text_[pos_] == 'x') ++pos_;
        }
        if (dims.empty()) fail(pos_, "expected the tensor's dims (e.g. 64x16xf16)");
        int depth = 0;
        std::size_t s = pos_;
        while (pos_ < text_.size() && !(depth == 0 && (text_[pos_] == ',' || text_[pos_] == '>'))) {
            if (text_[pos_] == '<') ++depth;
            if (text_[pos_] == '>') --depth;
            ++pos_;
        }
        if (pos_ == s) fail(pos_, "expected the element type after the dims");
        return dims;
    }

    linear::LinearLayout convert(const Value& layout, const std::vector<std::int64_t>& shape,
                                 std::size_t shapeColumn) {
        if (layout.kind == Value::Name) notRead(layout);
        Value call = layout;
        if (call.name == "GenericLinearLayout") {
            // Triton reads it as its bases over the tensor's shape, as printed (its Gluon
            // to_linear_layout would rebuild a #ttg.linear, which aborts on these).
            call.name = "DistributedLinearLayout";
            for (Field& f : call.fields)
                if (f.key == "shape") {
                    f.value.items.clear();
                    for (std::int64_t s : shape) {
                        Value x;
                        x.i = s;
                        x.column = shapeColumn;
                        f.value.items.push_back(x);
                    }
                }
            return linearLayoutCall(cur_, call);
        }
        if (call.name == "NVMMASharedLayout" && !call.field("rank")) {
            // Printed without its rank: the CGA layout's, 2 when there is none.
            Value rank;
            rank.column = call.column;
            rank.i = 2;
            call.fields.push_back({"rank", rank});
        }
        return gluonLayout(cur_, call, shape, shapeColumn);
    }

    linear::LinearLayout tensorType() {
        pos_ += 7;
        std::size_t col = 0;
        auto shape = dimsAndElement(col);
        expect(',', "before the tensor's layout (tensor<64x16xf16, #ttg.blocked<...>>)");
        Value layout = attribute(0);
        expect('>', "to close tensor<");
        if (layout.kind == Value::Call &&
            (layout.name == "NVMMASharedLayout" || layout.name == "SwizzledSharedLayout" ||
             layout.name == "SharedLinearLayout"))
            fail(layout.column - 1, "a tensor's layout is distributed; a shared layout belongs to "
                                    "a !ttg.memdesc");
        return convert(layout, shape, col);
    }

    linear::LinearLayout memdescType() {
        const std::size_t at = pos_;
        ++pos_;
        std::string name = ident();
        if (name.find('.') == std::string::npos) {
            pos_ = at;
            ++pos_;
            ident();
            return resolve("!" + name, at, [&] {
                skip();
                if (text_.substr(pos_, 1) != "!")
                    fail(pos_, "!" + name + " is not defined as a !ttg.memdesc type");
                return memdescType();
            });
        }
        if (name != "ttg.memdesc")
            fail(at, "this is Triton's print of a !" + name +
                         " type, which Tilescope does not read yet (it reads tensor<...> and "
                         "!ttg.memdesc<...>)");
        expect('<', "after !ttg.memdesc");
        std::size_t col = 0;
        auto shape = dimsAndElement(col);
        expect(',', "before the memdesc's layout");
        Value layout = attribute(0);
        expect(',', "before the memory space");
        Value space = attribute(0);
        if (space.kind != Value::Name || space.name != "#ttg.shared_memory") {
            if (space.kind == Value::Name && space.name == "#ttng.tensor_memory") notRead(layout);
            fail(space.column - 1, "expected the memory space #ttg.shared_memory (or its alias)");
        }
        // `mutable`, then the allocation shape when the memdesc is a view of a larger one.
        while (accept(',')) {
            skip();
            const std::size_t wordAt = pos_;
            if (ident() == "mutable") continue;
            pos_ = wordAt;
            std::vector<std::int64_t> alloc;
            while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
                alloc.push_back(integer());
                if (pos_ < text_.size() && text_[pos_] == 'x') ++pos_;
            }
            if (alloc.empty()) fail(wordAt, "expected 'mutable' or the allocation shape");
            if (alloc != shape)
                fail(wordAt, "this memdesc is a view of a larger allocation; Tilescope reads a "
                             "memdesc whose allocation is its own shape");
        }
        expect('>', "to close !ttg.memdesc<");
        if (layout.kind == Value::Call &&
            (layout.name != "NVMMASharedLayout" && layout.name != "SwizzledSharedLayout" &&
             layout.name != "SharedLinearLayout"))
            fail(layout.column - 1, "a !ttg.memdesc has a shared layout, not " + layout.name);
        // A pipelined allocation (`!ttg.memdesc<3x64x64xf16, ...>`) has leading dims that count
        // buffers, past the layout's rank; Triton does not convert the layout for that shape.
        std::size_t rank = 2;
        if (layout.kind == Value::Call && layout.name == "SwizzledSharedLayout")
            if (const Value* o = layout.field("order"); o && o->kind == Value::List)
                rank = o->items.size();
        if (layout.kind == Value::Call && layout.name == "NVMMASharedLayout" && shape.size() > rank)
            fail(col - 1, "this memdesc has " + std::to_string(shape.size()) +
                              " dims but its #ttg.nvmma_shared layout has rank 2: the leading dims "
                              "count buffers of a multi-buffered allocation, which Tilescope does "
                              "not read yet (paste one buffer's type, e.g. !ttg.memdesc<" +
                              std::to_string(shape[shape.size() - 2]) + "x" +
                              std::to_string(shape.back()) + "x...>)");
        if (layout.kind == Value::Call && layout.name == "SwizzledSharedLayout" &&
            shape.size() > rank)
            fail(col - 1, "this memdesc has " + std::to_string(shape.size()) +
                              " dims but its #ttg.swizzled_shared layout has rank " +
                              std::to_string(rank) +
                              ": the leading dims count buffers of a multi-buffered allocation, "
                              "which Tilescope does not read yet (paste one buffer's type)");
        return convert(layout, shape, col);
    }

    // An attribute pasted alone: linear ones carry their sizes; the others need a tensor.
    linear::LinearLayout bare(const Value& attr, std::size_t at) {
        if (attr.kind == Value::Name) notRead(attr);
        if (attr.name == "DistributedLinearLayout" || attr.name == "SharedLinearLayout")
            return linearLayoutCall(cur_, attr);
        if (attr.name == "GenericLinearLayout") {
            Value call = attr;
            call.name = "DistributedLinearLayout";
            return linearLayoutCall(cur_, call);
        }
        fail(at, "a " + attr.name +
                     " attribute has no shape of its own: paste the whole type, e.g. "
                     "tensor<64x16xf16, #ttg.blocked<{...}>> or !ttg.memdesc<64x64xf16, "
                     "#ttg.nvmma_shared<{...}>, #ttg.shared_memory, mutable>");
    }

    std::string_view text_;
    Cursor cur_;
    std::size_t pos_ = 0;
    std::map<std::string, std::pair<std::size_t, std::size_t>> aliases_; // value span
    std::map<std::size_t, std::size_t> defSpans_; // definition line start -> its end
    std::string lastAlias_;
    bool inAlias_ = false;
    int aliasDepth_ = 0;
};

} // namespace

bool isTtgirText(std::string_view t) {
    // `tensor<64x...`: a TTGIR tensor type starts with its dims (CuTe prints `tensor<ptr...`).
    if (t.substr(0, 7) == "tensor<")
        return t.size() > 7 && std::isdigit(static_cast<unsigned char>(t[7]));
    for (std::string_view p : {"!ttg.", "!ttng.", "#ttg.", "#ttng.", "#triton_gpu."})
        if (t.substr(0, p.size()) == p) return true;
    // `#blocked = ...` / `!memdesc = ...`: an alias definition line.
    if (t.empty() || (t[0] != '#' && t[0] != '!')) return false;
    std::size_t k = 1;
    while (k < t.size() && identChar(t[k]) && t[k] != '.')
        ++k;
    while (k < t.size() && (t[k] == ' ' || t[k] == '\t'))
        ++k;
    return k > 1 && k < t.size() && t[k] == '=';
}

linear::LinearLayout ttgirLayout(std::string_view text) {
    return MlirReader(text).read();
}

} // namespace ts::interop
