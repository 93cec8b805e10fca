// SPDX-License-Identifier: Apache-2.0
#include "walk.h"

#include "tilescope/support/errors.h"

#include <functional>
#include <map>
#include <set>

namespace ts::kernel {

namespace {

enum class Space { Shared, Local, Global, Other };

// What an expression evaluates to during the walk.
struct Value {
    enum Kind { Int, Ptr, Unknown } kind = Unknown;
    Expr e; // Int: its value; Ptr: byte offset from the buffer's start
    Space space = Space::Other;
    int buffer = -1; // Ptr
    int elem = 1;    // Ptr: bytes of the pointee
    std::string why; // Unknown: what it is ("data from memory", "runtime parameter n")

    static Value integer(Expr x) {
        Value v;
        v.kind = Int;
        v.e = std::move(x);
        return v;
    }
    static Value unknown(std::string w) {
        Value v;
        v.why = std::move(w);
        return v;
    }
    static Value pointer(Space s, int buf, Expr off, int elem) {
        Value v;
        v.kind = Ptr;
        v.space = s;
        v.buffer = buf;
        v.e = std::move(off);
        v.elem = elem;
        return v;
    }
};

bool isIntType(const std::string& t) {
    static const std::set<std::string> ints{
        "int",  "uint",        "unsigned", "int32_t", "uint32_t",     "int64_t",      "uint64_t",
        "long", "long long",   "short",    "size_t",  "unsigned int", "int16_t",      "uint16_t",
        "char", "signed char", "int8_t",   "uint8_t", "bool",         "unsigned long"};
    return ints.count(t) > 0;
}

int pointeeBytes(const std::string& type) {
    std::string t = type;
    if (!t.empty() && t.back() == '*') t.pop_back();
    if (t == "void") return 1;
    return c::typeBytes(t);
}

struct Walker {
    const XrayOptions& opt;
    KernelXray& k;
    std::vector<std::map<std::string, Value>> scopes;
    std::vector<Loop> loops;
    std::vector<Expr> conds;
    std::string blocked; // non-empty: every site from here is not analysed, with this reason
    int loopCounter = 0;
    int dynBuffer = -1;
    int epoch = 0;                // barriers walked so far
    std::vector<int> liveRegs{0}; // registers of the local arrays declared in each open scope

    Walker(const XrayOptions& o, KernelXray& kx) : opt(o), k(kx) {}

    // ---- environment ----
    Value* lookup(const std::string& name) {
        for (auto it = scopes.rbegin(); it != scopes.rend(); ++it) {
            auto f = it->find(name);
            if (f != it->end()) return &f->second;
        }
        return nullptr;
    }
    void bind(const std::string& name, Value v) { scopes.back()[name] = std::move(v); }

    int addBuffer(Buffer b) {
        k.buffers.push_back(std::move(b));
        return int(k.buffers.size()) - 1;
    }

    // ---- sites ----
    void addSite(const c::Expr& at, AccessKind kind, int bytes, const Value& ptr, int matrices = 0,
                 bool trans = false, const std::string& reason = {}) {
        Site s;
        s.line = at.line;
        s.column = at.column;
        s.kind = kind;
        s.bytes = bytes;
        s.matrices = matrices;
        s.trans = trans;
        s.buffer = ptr.kind == Value::Ptr ? ptr.buffer : -1;
        s.conditions = conds;
        s.loops = loops;
        s.epoch = epoch;
        s.text = exprText(at);
        if (!blocked.empty()) {
            s.not_analysed = blocked;
        } else if (!reason.empty()) {
            s.not_analysed = reason;
        } else if (ptr.kind != Value::Ptr) {
            s.not_analysed = "the address is not known: " + ptr.why;
        } else {
            s.address = ptr.e; // from the buffer's start; the xray adds the buffer's address
        }
        k.sites.push_back(std::move(s));
    }

    // ---- expressions ----
    static Value combineUnknown(const Value& a, const Value& b) {
        return Value::unknown(a.kind == Value::Unknown ? a.why : b.why);
    }

    Value arith(const std::string& op, const Value& a, const Value& b) {
        if (a.kind == Value::Ptr && b.kind == Value::Int && (op == "+" || op == "-")) {
            Expr d = b.e * std::int64_t(a.elem);
            return Value::pointer(a.space, a.buffer, op == "+" ? a.e + d : a.e - d, a.elem);
        }
        if (a.kind == Value::Int && b.kind == Value::Ptr && op == "+")
            return Value::pointer(b.space, b.buffer, b.e + a.e * std::int64_t(b.elem), b.elem);
        if (a.kind != Value::Int || b.kind != Value::Int) {
            if (a.kind == Value::Ptr || b.kind == Value::Ptr)
                return Value::unknown("pointer arithmetic with '" + op + "'");
            return combineUnknown(a, b);
        }
        static const std::map<std::string, Op> ops{
            {"+", Op::Add},      {"-", Op::Sub},    {"*", Op::Mul},  {"/", Op::TruncDiv},
            {"%", Op::TruncMod}, {"<<", Op::Shl},   {">>", Op::Shr}, {"&", Op::BitAnd},
            {"|", Op::BitOr},    {"^", Op::BitXor}, {"<", Op::Lt},   {"<=", Op::Le},
            {">", Op::Gt},       {">=", Op::Ge},    {"==", Op::Eq},  {"!=", Op::Ne},
            {"&&", Op::And},     {"||", Op::Or}};
        auto it = ops.find(op);
        if (it == ops.end()) return Value::unknown("operator " + op);
        return Value::integer(binary(it->second, a.e, b.e));
    }

    // The pointer and element access an lvalue / dereference names: p[i] or *p.
    Value elementPointer(const c::Expr& e) {
        if (e.kind == c::Expr::Index) {
            Value base = rvalue(*e.a);
            Value idx = rvalue(*e.b);
            if (base.kind != Value::Ptr)
                return base.kind == Value::Unknown ? base
                                                   : Value::unknown("indexing a non-pointer");
            if (idx.kind != Value::Int)
                return base.space == Space::Shared ? unknownSharedPointer(base, idx)
                                                   : Value::unknown("a data-dependent index");
            return arith("+", base, idx);
        }
        if (e.kind == c::Expr::Unary && e.op == "*") {
            Value p = rvalue(*e.a);
            return p;
        }
        return Value::unknown("not an element access");
    }
    // A shared pointer whose index cannot be evaluated: still a shared access (so it is listed),
    // with no address.
    Value unknownSharedPointer(const Value& base, const Value& idx) {
        Value v = Value::unknown("the index depends on " + idx.why);
        v.space = Space::Shared;
        v.buffer = base.buffer;
        v.elem = base.elem;
        return v;
    }
    bool isShared(const Value& p) const {
        return (p.kind == Value::Ptr || p.kind == Value::Unknown) && p.space == Space::Shared;
    }

    Value rvalue(const c::Expr& e) {
        using K = c::Expr;
        switch (e.kind) {
        case K::Int:
            return Value::integer(constant(e.value));
        case K::Float:
        case K::String:
            return Value::unknown("a non-integer constant");
        case K::Ident: {
            if (Value* v = lookup(e.text)) return *v;
            if (e.text == "true") return Value::integer(constant(1));
            if (e.text == "false") return Value::integer(constant(0));
            return Value::unknown("'" + e.text + "', which the reader does not know");
        }
        case K::Member: {
            if (e.a->kind == K::Ident) {
                const std::string& base = e.a->text;
                const int axis = e.text == "x" ? 0 : e.text == "y" ? 1 : e.text == "z" ? 2 : -1;
                if (axis >= 0 && (base == "threadIdx" || base == "blockIdx"))
                    return Value::integer(var(base + "." + e.text));
                if (axis >= 0 && base == "blockDim")
                    return Value::integer(constant(k.block[std::size_t(axis)]));
            }
            if (e.a->kind == K::Index || (e.a->kind == K::Unary && e.a->op == "*")) {
                Value p = elementPointer(*e.a);
                if (isShared(p))
                    addSite(e, AccessKind::Barrier, 0, p, 0, false,
                            "a member of an object in shared memory (." + e.text +
                                "): an mbarrier or similar object, not a data access");
                return Value::unknown("a struct member");
            }
            rvalue(*e.a);
            return Value::unknown("a struct member");
        }
        case K::Index:
        case K::Unary:
            if (e.kind == K::Index || e.op == "*") {
                Value p = elementPointer(e);
                if (isShared(p)) {
                    const int bytes = p.elem;
                    addSite(e, AccessKind::Load, bytes, p);
                }
                return Value::unknown(isShared(p) ? "data read from shared memory"
                                                  : "data read from memory");
            }
            if (e.op == "&") {
                if (e.a->kind == K::Index || (e.a->kind == K::Unary && e.a->op == "*")) {
                    Value p = elementPointer(*e.a);
                    return p;
                }
                if (e.a->kind == K::Ident) {
                    if (Value* v = lookup(e.a->text); v && v->kind == Value::Ptr) return *v;
                    return Value::pointer(Space::Local, -1, constant(0), 1);
                }
                rvalue(*e.a);
                return Value::unknown("an address the reader cannot follow");
            }
            {
                Value a = rvalue(*e.a);
                if (e.op == "++" || e.op == "--") {
                    if (e.a->kind == K::Ident) forget(e.a->text, e.line);
                    return Value::unknown("an incremented variable");
                }
                if (a.kind != Value::Int)
                    return a.kind == Value::Ptr && e.op == "+" ? a : Value::unknown(a.why);
                if (e.op == "-") return Value::integer(negate(a.e));
                if (e.op == "+") return a;
                if (e.op == "!") return Value::integer(unary(Op::Not, a.e));
                if (e.op == "~") return Value::integer(negate(a.e) - 1);
                return Value::unknown("operator " + e.op);
            }
        case K::Postfix:
            rvalue(*e.a);
            if (e.a->kind == K::Ident) forget(e.a->text, e.line);
            return Value::unknown("an incremented variable");
        case K::Binary: {
            Value a = rvalue(*e.a);
            Value b = rvalue(*e.b);
            return arith(e.op, a, b);
        }
        case K::Ternary: {
            Value c = rvalue(*e.a);
            Value a = rvalue(*e.b);
            Value b = rvalue(*e.c);
            if (c.kind == Value::Int && a.kind == Value::Int && b.kind == Value::Int)
                return Value::integer(ternary(Op::Select, c.e, a.e, b.e));
            if (c.kind == Value::Int && a.kind == Value::Ptr && b.kind == Value::Ptr &&
                a.buffer == b.buffer && a.space == b.space && a.elem == b.elem)
                return Value::pointer(a.space, a.buffer, ternary(Op::Select, c.e, a.e, b.e),
                                      a.elem);
            return Value::unknown(c.kind != Value::Int ? c.why : "a conditional value");
        }
        case K::Cast: {
            Value a = rvalue(*e.a);
            const std::string& t = e.text;
            if (!t.empty() && t.back() == '*') {
                if (a.kind == Value::Ptr) {
                    a.elem = pointeeBytes(t);
                    if (a.elem == 0) return Value::unknown("a pointer to an unknown type " + t);
                }
                if (a.kind == Value::Unknown && a.space == Space::Shared) a.elem = pointeeBytes(t);
                return a;
            }
            if (isIntType(t)) {
                if (a.kind == Value::Int) return a;
                return Value::unknown(a.kind == Value::Ptr ? "a pointer cast to an integer"
                                                           : a.why);
            }
            return Value::unknown("a " + t + " value");
        }
        case K::Assign:
            return assign(e);
        case K::Call:
            return call(e);
        case K::InitList:
            for (const auto& x : e.args)
                rvalue(*x);
            return Value::unknown("an initializer list");
        }
        return Value::unknown("an expression the reader does not know");
    }

    // A variable assigned after its declaration inside a loop or branch has no single value.
    void forget(const std::string& name, int line) {
        if (Value* v = lookup(name))
            *v = Value::unknown("'" + name + "', assigned at line " + std::to_string(line));
    }

    Value assign(const c::Expr& e) {
        using K = c::Expr;
        Value rhs = rvalue(*e.b);
        const c::Expr& lhs = *e.a;
        if (lhs.kind == K::Ident) {
            if (Value* v = lookup(lhs.text)) {
                if (e.op == "=" && loops.empty() && conds.empty() && blocked.empty())
                    *v = rhs;
                else if (v->kind == Value::Int || v->kind == Value::Ptr)
                    forget(lhs.text, e.line);
            }
            return rhs;
        }
        if (lhs.kind == K::Index || (lhs.kind == K::Unary && lhs.op == "*")) {
            Value p = elementPointer(lhs);
            if (isShared(p)) {
                if (e.op != "=") addSite(lhs, AccessKind::Load, p.elem, p);
                addSite(lhs, AccessKind::Store, p.elem, p);
            }
            return rhs;
        }
        rvalue(lhs);
        return rhs;
    }

    static bool startsWith(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

    Value call(const c::Expr& e) {
        if (e.text.empty() && e.a) rvalue(*e.a); // obj.method(...): the object's member
        const std::string& fn = e.text;
        std::vector<Value> args;
        // Pointer arguments are taken as pointers, not read.
        for (const auto& a : e.args)
            args.push_back(rvalue(*a));
        auto sharedArg = [&](std::size_t i) { return i < args.size() && isShared(args[i]); };
        auto anyShared = [&] {
            for (std::size_t i = 0; i < args.size(); ++i)
                if (sharedArg(i)) return int(i);
            return -1;
        };
        auto templateInt = [&]() -> int {
            try {
                return std::stoi(e.templ);
            } catch (...) {
                return 0;
            }
        };
        if (startsWith(fn, "tl::cp_async_gs")) {
            const int n = templateInt();
            if (sharedArg(0)) {
                std::string reason;
                if (n != 4 && n != 8 && n != 16) reason = "cp.async of " + e.templ + " bytes";
                if (fn == "tl::cp_async_gs_conditional" && args.size() > 2) {
                    if (args[2].kind == Value::Int) {
                        conds.push_back(args[2].e);
                        addSite(e, AccessKind::CpAsync, n, args[0], 0, false, reason);
                        conds.pop_back();
                    } else {
                        addSite(e, AccessKind::CpAsync, n, args[0], 0, false,
                                "its condition depends on " + args[2].why);
                    }
                } else {
                    addSite(e, AccessKind::CpAsync, n, args[0], 0, false, reason);
                }
                // The global side decides how the data arrives (one wavefront per 128-byte
                // line of a phase, measured): keep its address where it is known.
                if (args.size() > 1 && args[1].kind == Value::Ptr &&
                    args[1].space == Space::Global && !k.sites.empty())
                    k.sites.back().global_address = args[1].e;
            }
            return Value::unknown("a call");
        }
        for (const char* pre : {"tl::ptx_ldmatrix_x", "tl::ptx_stmatrix_x",
                                "tl::ptx_ldmatrix_m8n8_x", "tl::ptx_stmatrix_m8n8_x"}) {
            if (!startsWith(fn, pre)) continue;
            const std::string rest = fn.substr(std::string(pre).size());
            const int m = rest.empty() ? 0 : rest[0] - '0';
            const bool trans = rest.find("trans") != std::string::npos;
            const bool load = std::string(pre).find("ldmatrix") != std::string::npos;
            if (m == 1 || m == 2 || m == 4) {
                if (sharedArg(0))
                    addSite(e, load ? AccessKind::LdMatrix : AccessKind::StMatrix, 16, args[0], m,
                            trans);
                return Value::unknown("a call");
            }
        }
        if (fn == "min" || fn == "max" || fn == "std::min" || fn == "std::max") {
            if (args.size() == 2 && args[0].kind == Value::Int && args[1].kind == Value::Int)
                return Value::integer(binary(
                    fn.find("min") != std::string::npos ? Op::Min : Op::Max, args[0].e, args[1].e));
            return Value::unknown("min/max of data");
        }
        if (fn.find("sync") != std::string::npos || fn.find("barrier") != std::string::npos ||
            fn.find("Barrier") != std::string::npos || fn.find("fence") != std::string::npos ||
            fn.find("AllReduce") != std::string::npos ||
            fn.find("cp_async_wait") != std::string::npos)
            ++epoch;
        if (startsWith(fn, "tl::AllReduce<") ||
            (startsWith(fn, "tl::AllReduce") && !e.templ.empty()))
            if (allReduce(e, args)) return Value::unknown("the result of " + fn);
        if (startsWith(fn, "tl::wgmma_ss") || startsWith(fn, "tl::wgmma_rs") ||
            startsWith(fn, "tl::wgmma_sp")) {
            Value none = Value::unknown("descriptors");
            addSite(e, AccessKind::Mma, 0, none, 0, false,
                    "wgmma (" + fn +
                        ") reads its shared operands through matrix descriptors, "
                        "not by LSU instructions: the bank model does not apply (Nsight Compute "
                        "counts these reads as shared wavefronts)");
            return Value::unknown("the result of " + fn);
        }
        const int s = anyShared();
        if (s >= 0) {
            AccessKind kind = AccessKind::Other;
            std::string reason = "the function " + fn +
                                 " receives a shared-memory pointer; what it "
                                 "reads or writes is not known to the reader";
            if (startsWith(fn, "tl::tma_") || fn.find("::tma_") != std::string::npos) {
                kind = AccessKind::Tma;
                reason = "TMA (" + fn +
                         "): the tensor memory accelerator writes shared memory, "
                         "not the LSU, so there are no bank wavefronts to predict";
            } else if (fn.find("wgmma") != std::string::npos) {
                kind = AccessKind::Mma;
                reason = "wgmma (" + fn +
                         ") reads its shared operands through matrix "
                         "descriptors: not an LSU access";
            } else if (startsWith(fn, "tl::gemm") || fn.find("gemm") != std::string::npos) {
                kind = AccessKind::Mma;
                reason = "the operands are read inside the template " + fn +
                         " (CuTe computes the addresses), not in this source";
            } else if (fn.find("mbarrier") != std::string::npos ||
                       fn.find("barrier") != std::string::npos) {
                kind = AccessKind::Barrier;
                reason = "an mbarrier operation (" + fn + "), not a data access";
            } else if (fn.find("atomic") != std::string::npos ||
                       fn.find("Atomic") != std::string::npos) {
                kind = AccessKind::Atomic;
                reason = "an atomic on shared memory (" + fn + "): not modelled";
            } else if (fn.find("AllReduce") != std::string::npos ||
                       fn.find("CumSum") != std::string::npos ||
                       fn.find("Reduce") != std::string::npos) {
                reason = "a reduction through a shared workspace inside the template " + fn +
                         " (its accesses are not in this source)";
            }
            Value ptr = args[std::size_t(s)];
            addSite(e, kind, 0, ptr, 0, false, reason);
        }
        return Value::unknown("the result of " + fn);
    }

    // tl::AllReduce<Reducer, threads, scale, thread_offset, Barrier>::run(x, red_buf): the
    // butterfly of tl_templates/cuda/reduce.h. For each offset from threads / 2 down to scale
    // (halving), offsets of 32 and more go through the workspace: red_buf[tid - thread_offset]
    // = x, a barrier, then x op= red_buf[(tid - thread_offset) ^ offset]; smaller offsets are
    // shuffles. Returns false for forms it does not model (then the call is listed as usual).
    bool allReduce(const c::Expr& e, const std::vector<Value>& args) {
        if (e.text.size() < 5 || e.text.compare(e.text.size() - 5, 5, "::run") != 0) return false;
        std::vector<std::int64_t> nums;
        {
            // The template text is its tokens joined by spaces: "tl::SumOp , 256 , 1 , 0 , ..."
            std::string t = e.templ;
            std::size_t b = 0;
            int depth = 0;
            std::string cur;
            std::vector<std::string> parts;
            for (char ch : t) {
                if (ch == '<') ++depth;
                if (ch == '>') --depth;
                if (ch == ',' && depth == 0) {
                    parts.push_back(cur);
                    cur.clear();
                } else {
                    cur += ch;
                }
            }
            parts.push_back(cur);
            (void)b;
            for (std::size_t i = 1; i < parts.size() && i < 4; ++i) {
                try {
                    std::size_t used = 0;
                    std::string v = parts[i];
                    while (!v.empty() && v.front() == ' ')
                        v.erase(v.begin());
                    nums.push_back(std::stoll(v, &used));
                } catch (...) {
                    return false;
                }
            }
        }
        if (nums.size() < 3) return false;
        const std::int64_t threads = nums[0], scale = nums[1], offset0 = nums[2];
        if (args.size() < 2) return true; // shuffles only: no shared access
        const Value& buf = args[1];
        if (!isShared(buf)) return args[1].kind != Value::Unknown ? false : true;
        if (buf.kind != Value::Ptr) {
            addSite(e, AccessKind::Other, 0, buf, 0, false, "the AllReduce workspace is not known");
            return true;
        }
        const Expr tid = var("threadIdx.x") - offset0;
        for (std::int64_t off = threads / 2; off >= scale && off >= 1; off /= 2) {
            if (off >= 32) {
                Value st = arith("+", buf, Value::integer(tid));
                addSite(e, AccessKind::Store, buf.elem, st);
                k.sites.back().note =
                    "tl::AllReduce: red_buf[tid] = x (offset " + std::to_string(off) + ")";
                Value ld = arith("+", buf, Value::integer(bitxor(tid, constant(off))));
                addSite(e, AccessKind::Load, buf.elem, ld);
                k.sites.back().note =
                    "tl::AllReduce: x op= red_buf[tid ^ " + std::to_string(off) + "]";
            }
            if (off == scale) break;
        }
        return true;
    }

    // ---- statements ----
    // An array's extents and bytes (when every extent is a constant).
    void sizeArray(const c::Declarator& d, Buffer& b) {
        std::int64_t count = 1;
        bool known = true;
        for (const auto& dim : d.dims) {
            Value v = dim ? rvalue(*dim) : Value::unknown("empty extent");
            std::int64_t n = 0;
            if (v.kind == Value::Int && isConst(v.e, &n)) {
                b.dims.push_back(n);
                count *= n;
            } else {
                known = false;
            }
        }
        if (known && b.element_bytes) b.bytes = count * b.element_bytes;
    }

    void declare(const c::Declarator& d, int line) {
        if (d.shared) {
            Buffer b;
            b.name = d.name;
            b.ctype = d.type;
            b.element_bytes = c::typeBytes(d.type);
            b.line = line;
            if (d.extern_) {
                b.scope = "shared.dyn";
                b.note = "the dynamic shared buffer";
                b.align = d.align;
                const int id = addBuffer(b);
                dynBuffer = id;
                bind(d.name,
                     Value::pointer(Space::Shared, id, constant(0), std::max(1, b.element_bytes)));
                return;
            }
            b.scope = "shared";
            sizeArray(d, b);
            b.note = "a static __shared__ array";
            b.align = d.align;
            const int id = addBuffer(b);
            bind(d.name,
                 Value::pointer(Space::Shared, id, constant(0), std::max(1, b.element_bytes)));
            return;
        }
        if (!d.dims.empty()) { // a local array: a fragment in registers
            Buffer b;
            b.name = d.name;
            b.scope = "local";
            b.ctype = d.type;
            b.element_bytes = c::typeBytes(d.type);
            b.line = line;
            sizeArray(d, b);
            if (b.bytes > 0) {
                liveRegs.back() += int((b.bytes + 3) / 4);
                int live = 0;
                for (int r : liveRegs)
                    live += r;
                k.registers_lower_bound = std::max(k.registers_lower_bound, live);
            }
            const int id = addBuffer(b);
            bind(d.name,
                 Value::pointer(Space::Local, id, constant(0), std::max(1, b.element_bytes)));
            return;
        }
        Value v = d.init ? rvalue(*d.init) : Value::unknown("'" + d.name + "', not initialised");
        const bool ptrType = !d.type.empty() && d.type.back() == '*';
        if (ptrType && v.kind == Value::Ptr) {
            v.elem = std::max(1, pointeeBytes(d.type));
            // A named pointer into the dynamic buffer at a constant offset is one of TileLang's
            // shared buffers (`void* A_s = ((void*)((char*)buf_dyn_shmem + 0));`).
            std::int64_t off = 0;
            if (v.space == Space::Shared && v.buffer == dynBuffer && dynBuffer >= 0 &&
                isConst(v.e, &off) && scopes.size() <= 2 && loops.empty() && conds.empty()) {
                Buffer b;
                b.name = d.name;
                b.scope = "shared.dyn";
                b.ctype = d.type.substr(0, d.type.size() - 1);
                b.element_bytes = pointeeBytes(d.type);
                b.parent = dynBuffer;
                b.offset = off;
                b.line = line;
                b.note = "at byte " + std::to_string(off) + " of the dynamic shared buffer";
                const int id = addBuffer(b);
                v.buffer = id;
                v.e = constant(0);
            }
        } else if (d.type == "auto") {
            // auto x = ...: the value as it is (a pointer stays a pointer)
        } else if (!ptrType && v.kind == Value::Ptr) {
            v = Value::unknown("a pointer stored in a non-pointer");
        } else if (!ptrType && !isIntType(d.type) && v.kind == Value::Int) {
            v = Value::unknown("a " + d.type + " value");
        }
        bind(d.name, v);
    }

    void statement(const c::Stmt& s) {
        using S = c::Stmt;
        switch (s.kind) {
        case S::Block:
            scopes.emplace_back();
            liveRegs.push_back(0);
            for (const auto& x : s.body)
                statement(*x);
            liveRegs.pop_back();
            scopes.pop_back();
            return;
        case S::Decl:
            for (const auto& d : s.decls)
                declare(d, s.line);
            return;
        case S::ExprStmt:
            if (s.expr) rvalue(*s.expr);
            return;
        case S::If: {
            Value c = rvalue(*s.expr);
            const std::string saved = blocked;
            if (c.kind != Value::Int && blocked.empty())
                blocked = "under a condition at line " + std::to_string(s.line) +
                          " that depends on " + c.why;
            if (c.kind == Value::Int) conds.push_back(c.e);
            scopes.emplace_back();
            statement(*s.then);
            scopes.pop_back();
            if (c.kind == Value::Int) conds.pop_back();
            if (s.otherwise) {
                if (c.kind == Value::Int) conds.push_back(unary(Op::Not, c.e));
                scopes.emplace_back();
                statement(*s.otherwise);
                scopes.pop_back();
                if (c.kind == Value::Int) conds.pop_back();
            }
            blocked = saved;
            return;
        }
        case S::For:
            forLoop(s);
            return;
        case S::While: {
            const std::string saved = blocked;
            if (blocked.empty())
                blocked = "inside a while loop at line " + std::to_string(s.line) +
                          " (its trip count is not known)";
            if (s.expr) rvalue(*s.expr);
            scopes.emplace_back();
            statement(*s.then);
            scopes.pop_back();
            blocked = saved;
            return;
        }
        case S::Return:
        case S::Break:
        case S::Continue:
            if (s.expr) rvalue(*s.expr);
            if (!loops.empty() || !conds.empty())
                k.notes.push_back("line " + std::to_string(s.line) +
                                  ": an early exit inside a loop or branch; accesses after it are "
                                  "counted as if it were not taken");
            return;
        case S::Empty:
            return;
        case S::Opaque: {
            // A statement the reader could not parse: if it names a shared buffer, list it.
            bool mentions = false;
            for (const auto& b : k.buffers)
                if ((b.scope == "shared" || b.scope == "shared.dyn") &&
                    s.text.find(b.name) != std::string::npos)
                    mentions = true;
            if (mentions) {
                Site site;
                site.line = s.line;
                site.kind = AccessKind::Other;
                site.bytes = 0;
                site.text = s.text.substr(0, 160);
                site.not_analysed = "a statement the reader could not read names a shared buffer";
                site.loops = loops;
                k.sites.push_back(std::move(site));
            }
            return;
        }
        }
    }

    void forLoop(const c::Stmt& s) {
        using K = c::Expr;
        scopes.emplace_back();
        std::string name;
        Value start = Value::unknown("no initialisation");
        if (s.init && s.init->kind == c::Stmt::Decl && s.init->decls.size() == 1 &&
            s.init->decls[0].init) {
            name = s.init->decls[0].name;
            start = rvalue(*s.init->decls[0].init);
        } else if (s.init && s.init->kind == c::Stmt::ExprStmt && s.init->expr &&
                   s.init->expr->kind == K::Assign && s.init->expr->a->kind == K::Ident) {
            name = s.init->expr->a->text;
            start = rvalue(*s.init->expr->b);
        }
        std::int64_t step = 0;
        if (s.step) {
            const c::Expr& st = *s.step;
            if ((st.kind == K::Postfix || st.kind == K::Unary) && st.a->kind == K::Ident &&
                st.a->text == name)
                step = st.op == "++" ? 1 : st.op == "--" ? -1 : 0;
            if (st.kind == K::Assign && st.a->kind == K::Ident && st.a->text == name &&
                (st.op == "+=" || st.op == "-=")) {
                Value v = rvalue(*st.b);
                std::int64_t c = 0;
                if (v.kind == Value::Int && isConst(v.e, &c)) step = st.op == "+=" ? c : -c;
            }
        }
        std::int64_t extent = -1, first = 0;
        std::string why;
        Value bound = Value::unknown("no condition");
        std::string cmp;
        if (s.expr && s.expr->kind == K::Binary && s.expr->a->kind == K::Ident &&
            s.expr->a->text == name) {
            cmp = s.expr->op;
            bound = rvalue(*s.expr->b);
        }
        std::int64_t last = 0;
        if (name.empty() || step == 0) {
            why = "a loop form the reader does not know";
        } else if (start.kind != Value::Int || !isConst(start.e, &first)) {
            why = "its start is not a constant" +
                  (start.kind == Value::Unknown ? " (" + start.why + ")" : std::string());
        } else if (bound.kind != Value::Int || !isConst(bound.e, &last)) {
            why = "its bound is not a constant" +
                  (bound.kind == Value::Unknown ? " (" + bound.why + ")" : std::string());
        } else if (step > 0 && (cmp == "<" || cmp == "<=" || cmp == "!=")) {
            const std::int64_t end = cmp == "<=" ? last + 1 : last;
            extent = end > first ? (end - first + step - 1) / step : 0;
        } else if (step < 0 && (cmp == ">" || cmp == ">=")) {
            const std::int64_t end = cmp == ">=" ? last - 1 : last;
            extent = first > end ? (first - end + (-step) - 1) / (-step) : 0;
        } else {
            why = "a loop form the reader does not know";
        }
        const std::string saved = blocked;
        if (extent < 0) {
            if (blocked.empty())
                blocked = "inside the loop at line " + std::to_string(s.line) + ": " + why;
            bind(name.empty() ? "?" : name,
                 Value::unknown("the variable of the loop at line " + std::to_string(s.line)));
            statement(*s.then);
            blocked = saved;
            scopes.pop_back();
            return;
        }
        if (extent == 0) { // never runs
            scopes.pop_back();
            return;
        }
        Loop l;
        l.name = name;
        l.var = name + "@" + std::to_string(s.line) + "#" + std::to_string(loopCounter++);
        l.start = first;
        l.step = step;
        l.extent = extent;
        l.line = s.line;
        loops.push_back(l);
        bind(name, Value::integer(constant(first) + var(l.var) * step));
        statement(*s.then);
        loops.pop_back();
        scopes.pop_back();
    }
};

} // namespace

std::string exprText(const c::Expr& e, std::size_t limit) {
    using K = c::Expr;
    std::string out;
    std::function<void(const c::Expr&)> go = [&](const c::Expr& x) {
        if (out.size() > limit) return;
        switch (x.kind) {
        case K::Ident:
            out += x.text;
            if (!x.templ.empty()) out += "<" + x.templ + ">";
            return;
        case K::Int:
            out += std::to_string(x.value);
            return;
        case K::Float:
            out += x.text;
            return;
        case K::String:
            out += "\"" + x.text + "\"";
            return;
        case K::Member:
            go(*x.a);
            out += x.op + x.text;
            return;
        case K::Call:
            out += x.text.empty() ? "(...)" : x.text;
            if (!x.templ.empty()) out += "<" + x.templ + ">";
            out += "(";
            for (std::size_t i = 0; i < x.args.size(); ++i) {
                if (i) out += ", ";
                go(*x.args[i]);
            }
            out += ")";
            return;
        case K::Index:
            go(*x.a);
            out += "[";
            go(*x.b);
            out += "]";
            return;
        case K::Cast:
            out += "(" + x.text + ")";
            go(*x.a);
            return;
        case K::Unary:
            out += x.op;
            go(*x.a);
            return;
        case K::Postfix:
            go(*x.a);
            out += x.op;
            return;
        case K::Binary:
            out += "(";
            go(*x.a);
            out += " " + x.op + " ";
            go(*x.b);
            out += ")";
            return;
        case K::Ternary:
            go(*x.a);
            out += " ? ";
            go(*x.b);
            out += " : ";
            go(*x.c);
            return;
        case K::Assign:
            go(*x.a);
            out += " " + x.op + " ";
            go(*x.b);
            return;
        case K::InitList:
            out += "{...}";
            return;
        }
    };
    go(e);
    if (out.size() > limit) out = out.substr(0, limit) + "...";
    return out;
}

void walkKernel(const c::Function& f, const XrayOptions& opt, KernelXray& k) {
    Walker w(opt, k);
    k.name = f.name;
    k.line = f.line;
    w.scopes.emplace_back();
    for (const auto& p : f.params) {
        Buffer b;
        b.name = p.name;
        b.scope = !p.type.empty() && p.type.back() == '*' ? "global" : "param";
        b.ctype = p.type;
        b.element_bytes = pointeeBytes(p.type);
        b.line = f.line;
        if (b.scope == "global") {
            const int id = w.addBuffer(b);
            w.bind(p.name,
                   Value::pointer(Space::Global, id, constant(0), std::max(1, b.element_bytes)));
        } else {
            auto it = opt.scalars.find(p.name);
            w.bind(p.name, it != opt.scalars.end() && isIntType(p.type)
                               ? Value::integer(constant(it->second))
                               : Value::unknown("the runtime parameter '" + p.name + "'"));
        }
    }
    if (f.body) w.statement(*f.body);
}

} // namespace ts::kernel
