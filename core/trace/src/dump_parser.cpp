// SPDX-License-Identifier: Apache-2.0
// The incremental log parser: a line-driven state machine over TileLang's layout messages.
#include "dump_internal.h"
#include "tilescope/support/errors.h"
#include "tilescope/support/limits.h"
#include "tilescope/trace/dump.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <fstream>
#include <functional>
#include <list>
#include <unordered_map>
#include <utility>
#include <variant>

namespace ts::dump {

const char* kindName(EventKind k) {
    switch (k) {
    case EventKind::Inferred:
        return "inferred";
    case EventKind::Repr:
        return "repr";
    case EventKind::Conflict:
        return "conflict";
    case EventKind::AliasConflict:
        return "alias_conflict";
    case EventKind::ParallelConflict:
        return "parallel_conflict";
    case EventKind::ReduceConflict:
        return "reduce_conflict";
    case EventKind::Warning:
        return "warning";
    case EventKind::Error:
        return "error";
    }
    return "?";
}

const DumpLayout* Event::layout(std::string_view role) const {
    for (const auto& l : layouts)
        if (l.role == role) return &l;
    return nullptr;
}

bool isConflict(EventKind k) {
    return k == EventKind::Conflict || k == EventKind::AliasConflict ||
           k == EventKind::ParallelConflict || k == EventKind::ReduceConflict;
}

std::pair<const DumpLayout*, const DumpLayout*> Event::comparedLayouts() const {
    switch (kind) {
    case EventKind::Conflict:
    case EventKind::AliasConflict:
        return {layout("current"), layout("previous")};
    case EventKind::ParallelConflict:
        return {layout("loop"), layout("fragment")};
    case EventKind::ReduceConflict:
        return {layout("orig_dst_layout"), layout("reducer_layout")};
    default:
        return {nullptr, nullptr};
    }
}

namespace {

bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\r';
}

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && isSpace(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && isSpace(s.back()))
        s.remove_suffix(1);
    return s;
}

// After optional indentation, `line` starts with `key`: returns the rest (npos data() otherwise).
bool startsAfterIndent(std::string_view line, std::string_view key, std::string_view* rest) {
    std::string_view t = line;
    while (!t.empty() && isSpace(t.front()))
        t.remove_prefix(1);
    if (t.substr(0, key.size()) != key) return false;
    if (rest) *rest = trimmed(t.substr(key.size()));
    return true;
}

// Name-like token: identifier characters, dots, brackets (buffers print as plain names).
std::string_view token(std::string_view s) {
    std::size_t k = 0;
    while (k < s.size() && !isSpace(s[k]) && s[k] != ',' && s[k] != ':')
        ++k;
    return s.substr(0, k);
}

std::string_view lastToken(std::string_view s) {
    s = trimmed(s);
    std::size_t k = s.size();
    while (k > 0 && !isSpace(s[k - 1]) && s[k - 1] != ':')
        --k;
    return s.substr(k);
}

std::string stripPeriod(std::string_view s) {
    while (!s.empty() && (s.back() == '.' || s.back() == ':'))
        s.remove_suffix(1);
    return std::string(s);
}

// Removes ANSI colour sequences (ESC [ ... letter).
std::string stripAnsi(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t k = 0; k < s.size(); ++k) {
        if (s[k] == '\x1b' && k + 1 < s.size() && s[k + 1] == '[') {
            k += 2;
            while (k < s.size() && !(s[k] >= '@' && s[k] <= '~'))
                ++k;
            continue;
        }
        out += s[k];
    }
    return out;
}

bool looksBinary(std::string_view s) {
    std::size_t bad = 0;
    for (unsigned char c : s) {
        if (c == 0) return true;
        if (c < 0x20 && c != '\t' && c != '\r' && c != '\x1b' && c != '\f' && c != '\v') ++bad;
    }
    return bad * 20 > s.size() + 1 || bad > 8;
}

// Net bracket depth of a line, to join a repr that a logger wrapped over several lines.
int bracketBalance(std::string_view s) {
    int d = 0;
    for (char c : s) {
        if (c == '(' || c == '[') ++d;
        if (c == ')' || c == ']') --d;
    }
    return d;
}

// Python exception line: `tvm.error.InternalError: message`.
bool exceptionLine(std::string_view line, std::string* type, std::string* message) {
    std::size_t colon = line.find(": ");
    if (colon == std::string_view::npos || colon == 0 || colon > 120) return false;
    std::string_view t = line.substr(0, colon);
    for (char c : t)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.')) return false;
    auto endsWith = [&](std::string_view suf) {
        return t.size() >= suf.size() && t.substr(t.size() - suf.size()) == suf;
    };
    if (!endsWith("Error") && !endsWith("Exception") && !endsWith("Interrupt")) return false;
    *type = std::string(t);
    *message = std::string(trimmed(line.substr(colon + 2)));
    return true;
}

constexpr std::string_view kInferred = " inferred layout:";
constexpr std::string_view kInferenced = " inferenced layout:";
constexpr std::string_view kDifferent = "Get different layout for ";
constexpr std::string_view kAlias = "Get different layout for alias buffer ";
constexpr std::string_view kParallel = "Layout infer conflict between ";
constexpr std::string_view kReduce = "Layout may conflict with ReduceOp for buffer ";
constexpr std::string_view kFailed = "Layout inference failed for buffer ";
constexpr std::string_view kLower = "Cannot lower access to thread-distributed fragment `";

// Where a lone repr starts in a line, or npos.
std::size_t reprStart(std::string_view line) {
    static constexpr std::string_view keys[] = {"tl.Fragment(", "tl.Layout(", "Fragment((",
                                                "Fragment([",   "Layout((",   "Layout(["};
    for (std::string_view key : keys) {
        std::size_t pos = line.find(key);
        while (pos != std::string_view::npos) {
            bool ok = true;
            if (pos > 0) {
                char p = line[pos - 1];
                // `T.Fragment([...` is Python source, `make_Layout(` an identifier.
                if (std::isalnum(static_cast<unsigned char>(p)) || p == '_') ok = false;
                if (p == '.' && !(key.substr(0, 3) == "tl.")) ok = false;
            }
            if (ok) return pos;
            pos = line.find(key, pos + 1);
        }
    }
    return std::string_view::npos;
}

} // namespace

struct Parser::Impl {
    enum class Block { None, Visual, Conflict, Alias, Parallel, Reduce, Repr };

    ParserOptions opt;
    std::string partial;
    bool partialCut = false;
    std::size_t lineNo = 0;
    std::int64_t byteCount = 0;
    bool stop = false;
    std::vector<Event> out;
    std::size_t nextIndex = 0;

    // Open block.
    Block block = Block::None;
    Event cur;
    int step = 0;        // index of the next expected field
    VisualFields visual; // Inferred
    std::size_t fieldLine[4] = {0, 0, 0, 0};
    std::string joining;  // a repr still missing closing brackets
    std::string joinRole; // its role
    std::size_t joinLine = 0;
    int joinLines = 0;
    bool awaitingSpan = false;
    int snippetLines = 0; // lines of the source snippet still possible after a `-->` span

    // The innermost traceback frame seen lately (`File "x.cc", line 12, in F`): where an
    // exception on one of the next lines was raised.
    std::string frame;
    std::size_t frameLine = 0;

    // Binary run.
    std::size_t binaryFirst = 0, binaryLast = 0;

    // Parsed-layout cache: logs repeat the same layouts many times.
    struct Cached {
        std::optional<Mapping> value;
        std::string mapping, error, note;
    };
    std::unordered_map<std::string, Cached> cache;
    std::unordered_map<std::string, std::size_t> seen; // event key -> index

    explicit Impl(ParserOptions o) : opt(o) {
        if (opt.maxBytes <= 0) opt.maxBytes = limits::kMaxLogBytes;
    }

    void addRaw(std::string_view line) {
        if (cur.raw.size() >= opt.maxRawBytes) return;
        if (!cur.raw.empty()) cur.raw += '\n';
        cur.raw.append(line.substr(0, opt.maxRawBytes - std::min(opt.maxRawBytes, cur.raw.size())));
    }

    void begin(EventKind k, Block b, std::string_view line) {
        cur = Event{};
        cur.kind = k;
        cur.line = cur.endLine = lineNo;
        block = b;
        step = 0;
        visual = {};
        joining.clear();
        awaitingSpan = false;
        snippetLines = 0;
        addRaw(line);
    }

    // Refuses a layout whose evaluation would compute more than opt.maxCells cells (each replica
    // of a fragment's cell is one), before anything is evaluated. A visual block's shape is its
    // Shape field.
    void checkCellCap(const Mapping& m, bool visual) const {
        if (opt.maxCells <= 0) return;
        const Shape& shape =
            std::visit([](const auto& v) -> const Shape& { return v.inputShape(); }, m);
        const Fragment* f = std::get_if<Fragment>(&m);
        const std::int64_t cells = cellCount(shape); // at most kMaxCells: the layout was built
        const std::int64_t replicas = f ? f->replicate() : 1;
        if (cells * replicas <= opt.maxCells) return; // at most 2^24 x 2^16: no overflow
        std::string msg =
            "shape " + formatShape(shape) + " has " + std::to_string(cells) + " cells" +
            (replicas > 1 ? " x " + std::to_string(replicas) +
                                " replicas = " + std::to_string(cells * replicas) + " to evaluate"
                          : "") +
            ", over this parser's limit of " + std::to_string(opt.maxCells) + " (not evaluated)";
        if (visual) throw FieldError(0, std::move(msg), "", 0);
        throw InputError(msg);
    }

    // Parses (and evaluates, within the cap) a layout once per distinct text. A repr is always
    // evaluated, as its note compares TileLang's printed extents with the cells; that one
    // evaluation is also the check of opt.evaluate.
    const Cached& parseCached(const std::string& key, const std::function<ParsedRepr()>& parse,
                              bool visual) {
        auto it = cache.find(key);
        if (it != cache.end()) return it->second;
        if (cache.size() > 4096) cache.clear();
        Cached c;
        try {
            ParsedRepr r = parse();
            checkCellCap(r.mapping, visual);
            if (opt.evaluate || !visual) {
                if (const Fragment* f = std::get_if<Fragment>(&r.mapping)) {
                    const FragmentTable t = f->evaluate();
                    if (!visual) c.note = reprNote(r, &t, nullptr);
                } else {
                    const LayoutTable t = std::get<Layout>(r.mapping).evaluate();
                    if (!visual) c.note = reprNote(r, nullptr, &t);
                }
            }
            c.mapping = mappingText(r.mapping);
            c.value = std::move(r.mapping);
        } catch (const FieldError& e) {
            static const char* names[] = {"Shape", "Thread", "Index", "Replicate"};
            c.error = std::string(names[e.field]) + ": " +
                      (e.column() ? "column " + std::to_string(e.column()) + ": " : "") +
                      e.message();
        } catch (const std::exception& e) {
            c.error = e.what();
        }
        return cache.emplace(key, std::move(c)).first->second;
    }

    void addRepr(std::string role, std::string_view text, std::size_t line) {
        DumpLayout l;
        l.role = std::move(role);
        l.raw = std::string(trimmed(text));
        l.line = line;
        const Cached& c = parseCached(
            "R" + l.raw, [&] { return parseReprUnevaluated(l.raw); }, false);
        l.value = c.value;
        l.mapping = c.mapping;
        l.error = c.error;
        l.note = c.note;
        if (!l.error.empty() && cur.problem.empty())
            cur.problem = "line " + std::to_string(line) + ": " + l.role + ": " + l.error;
        cur.layouts.push_back(std::move(l));
    }

    void finishVisual() {
        DumpLayout l;
        l.role = "layout";
        l.line = cur.line;
        l.raw = cur.raw;
        std::string key = "V" + visual.shape + "\x1f" + visual.thread + "\x1f" + visual.index +
                          "\x1f" + visual.replicate;
        const Cached& c = parseCached(
            key,
            [&] {
                ParsedRepr r; // a block prints no extents to compare
                r.mapping = parseVisualFields(visual);
                return r;
            },
            true);
        l.value = c.value;
        l.mapping = c.mapping;
        l.error = c.error;
        if (!c.error.empty() && cur.problem.empty()) {
            // Point at the line of the failing field.
            std::size_t at = cur.line;
            for (int f = 0; f < 4; ++f)
                if (c.error.rfind(std::string(f == 0   ? "Shape"
                                              : f == 1 ? "Thread"
                                              : f == 2 ? "Index"
                                                       : "Replicate") +
                                      ":",
                                  0) == 0 &&
                    fieldLine[f])
                    at = fieldLine[f];
            cur.problem = "line " + std::to_string(at) + ": " + c.error;
        }
        cur.layouts.push_back(std::move(l));
    }

    void emit() {
        if (cur.endLine < cur.line) cur.endLine = cur.line;
        cur.index = nextIndex++;
        std::string key = std::string(kindName(cur.kind)) + "\x1f" + cur.buffer + "\x1f" +
                          cur.other + "\x1f" + cur.message + "\x1f" + cur.problem;
        for (const auto& l : cur.layouts)
            key += "\x1f" + (cur.kind == EventKind::Inferred ? l.mapping + l.error : l.raw);
        auto [it, fresh] = seen.emplace(std::move(key), cur.index);
        if (!fresh) cur.repeatOf = it->second;
        if (seen.size() > 100000) seen.clear();
        out.push_back(std::move(cur));
        cur = Event{};
        block = Block::None;
    }

    // The open block ends early: report what is there, with the problem.
    void breakOff(const std::string& expected, bool atEof) {
        if (!joining.empty()) {
            if (cur.problem.empty())
                cur.problem = "line " + std::to_string(joinLine) + ": " + joinRole +
                              ": unbalanced parentheses (the layout never closes)";
            joining.clear();
        }
        if (cur.problem.empty())
            cur.problem = "line " + std::to_string(atEof ? lineNo : lineNo) + ": " +
                          (atEof ? "the log ends before " : "expected ") + expected +
                          (atEof ? "" : " (the block is truncated)");
        emit();
    }

    std::string expectedText() const {
        switch (block) {
        case Block::Visual: {
            static const char* f[] = {"'Shape:'", "'Thread:'", "'Index:'", "'Replicate:'"};
            return f[std::min(step, 3)];
        }
        case Block::Conflict:
            return step == 0 ? "'current layout:'" : "'previous layout:'";
        case Block::Alias:
            return step == 0 ? "'current:'" : "'previous:'";
        case Block::Parallel:
            return step == 0 ? "'loop Fragment(...)'" : "'fragment Fragment(...)'";
        case Block::Reduce:
            return step == 0   ? "'src_layout = ...'"
                   : step == 1 ? "'reducer_layout = ...'"
                               : "'orig_dst_layout = ...'";
        default:
            return "more layout text";
        }
    }

    // Layout text for `role` starts here; it may continue over lines when brackets are open.
    // Returns true when the layout is complete.
    bool layoutLine(const std::string& role, std::string_view text) {
        if (bracketBalance(text) > 0) {
            joining = std::string(text);
            joinRole = role;
            joinLine = lineNo;
            joinLines = 1;
            return false;
        }
        addRepr(role, text, lineNo);
        return true;
    }

    void blockFieldDone() {
        ++step;
        int need = block == Block::Reduce ? 3 : 2;
        if (block == Block::Repr) {
            emit();
            return;
        }
        if (step >= need) {
            if (block == Block::Conflict || block == Block::Alias) {
                awaitingSpan = true;
                return;
            }
            emit();
        }
    }

    // One complete line. Returns after consuming it, possibly re-dispatching it as a new start.
    void onLine(std::string_view rawLine, bool eofPartial) {
        std::string clean;
        std::string_view line = rawLine;
        if (line.find('\x1b') != std::string_view::npos) {
            clean = stripAnsi(line);
            line = clean;
        }
        if (looksBinary(line)) {
            if (binaryFirst == 0 || binaryLast + 1 != lineNo) flushBinary();
            if (binaryFirst == 0) binaryFirst = lineNo;
            binaryLast = lineNo;
            if (block != Block::None) breakOff(expectedText() + ", found binary data", false);
            return;
        }
        flushBinary();
        noteFrame(line);

        if (block != Block::None) {
            if (continueBlock(line, eofPartial)) return;
        }
        startLine(line, eofPartial);
    }

    // `  File "/src/transform/layout_inference.cc", line 1539, in void ns::Cls::Fn(args)` ->
    // "layout_inference.cc:1539 in Cls::Fn"; a frame without a file (`<unknown>`, as TVM's
    // C++ frames often are) gives the function alone. The logging machinery's own frames
    // (LogFatal's destructor) say nothing about where the check failed.
    void noteFrame(std::string_view line) {
        std::string_view t = trimmed(line);
        if (t.rfind("File \"", 0) != 0) return;
        const std::size_t q = t.find('"', 6);
        if (q == std::string_view::npos) return;
        std::string_view path = t.substr(6, q - 6);
        std::string_view rest = t.substr(q + 1);
        if (rest.rfind(", line ", 0) != 0 || path.empty()) return;
        rest.remove_prefix(7);
        std::size_t digits = 0;
        while (digits < rest.size() && std::isdigit(static_cast<unsigned char>(rest[digits])))
            ++digits;
        if (digits == 0) return;
        const bool hasFile = path.front() != '<';
        std::string where = hasFile ? std::string(path.substr(path.find_last_of('/') + 1)) + ":" +
                                          std::string(rest.substr(0, digits))
                                    : std::string();
        rest.remove_prefix(digits);
        std::string_view fn;
        if (rest.rfind(", in ", 0) == 0) {
            fn = rest.substr(5);
            fn = fn.substr(0, fn.find('('));                           // the parameter list
            if (auto sp = fn.rfind(' '); sp != std::string_view::npos) // the return type
                fn.remove_prefix(sp + 1);
            // The class and function, without the namespaces before them.
            if (auto c = fn.rfind("::"); c != std::string_view::npos && c > 0)
                if (auto c2 = fn.rfind("::", c - 1); c2 != std::string_view::npos)
                    fn.remove_prefix(c2 + 2);
        }
        if (fn.find("LogFatal") != std::string_view::npos ||
            fn.find("LogMessage") != std::string_view::npos)
            return;
        if (!hasFile && fn.empty()) return;
        if (!fn.empty()) where += (where.empty() ? "" : " in ") + std::string(fn);
        frame = std::move(where);
        frameLine = lineNo;
    }

    // Returns true if the line belonged to the open block.
    bool continueBlock(std::string_view line, bool eofPartial) {
        if (!joining.empty()) {
            joining += ' ';
            joining += trimmed(line);
            addRaw(line);
            cur.endLine = lineNo;
            ++joinLines;
            if (bracketBalance(joining) <= 0) {
                std::string text = std::move(joining);
                joining.clear();
                addRepr(joinRole, text, joinLine);
                blockFieldDone();
            } else if (joinLines > 64 || joining.size() > opt.maxLineBytes) {
                breakOff("", false);
            }
            return true;
        }
        std::string_view rest;
        auto take = [&] {
            addRaw(line);
            cur.endLine = lineNo;
            if (eofPartial && cur.problem.empty())
                cur.problem = "line " + std::to_string(lineNo) + ": the log ends mid-line";
        };
        if (awaitingSpan) {
            awaitingSpan = false;
            if (startsAfterIndent(line, "-->", &rest)) {
                take();
                cur.span = std::string(rest);
                snippetLines = 3; // `     |`, ` 165 |     A_frag = ...`, `     |     ^`
                return true;
            }
            emit();
            return false;
        }
        if (snippetLines > 0) {
            // TVM shows the spanned source as rustc does; the numbered line is the code.
            std::string_view t = trimmed(line);
            std::size_t digits = 0;
            while (digits < t.size() && std::isdigit(static_cast<unsigned char>(t[digits])))
                ++digits;
            std::string_view after = trimmed(t.substr(digits));
            if (!after.empty() && after.front() == '|') {
                take();
                if (digits > 0) cur.spanSource = std::string(trimmed(after.substr(1)));
                if (--snippetLines == 0) emit();
                return true;
            }
            snippetLines = 0;
            emit();
            return false;
        }
        switch (block) {
        case Block::Visual: {
            static constexpr std::string_view keys[] = {
                "Shape:", "Thread:", "Index:", "Replicate:"};
            if (startsAfterIndent(line, keys[step], &rest)) {
                take();
                std::string* dst[] = {&visual.shape, &visual.thread, &visual.index,
                                      &visual.replicate};
                *dst[step] = std::string(rest);
                fieldLine[step] = lineNo;
                if (++step == 4) {
                    finishVisual();
                    emit();
                }
                return true;
            }
            if (step == 3) { // older TileLang prints no Replicate line
                finishVisual();
                emit();
                return false;
            }
            breakOff(expectedText(), false);
            return false;
        }
        case Block::Conflict:
        case Block::Alias: {
            bool alias = block == Block::Alias;
            std::string_view key = step == 0 ? (alias ? "current:" : "current layout:")
                                             : (alias ? "previous:" : "previous layout:");
            if (startsAfterIndent(line, key, &rest)) {
                take();
                if (layoutLine(step == 0 ? "current" : "previous", rest)) blockFieldDone();
                return true;
            }
            breakOff(expectedText(), false);
            return false;
        }
        case Block::Parallel: {
            std::string_view key = step == 0 ? "loop " : "fragment ";
            if (startsAfterIndent(line, key, &rest)) {
                take();
                if (layoutLine(step == 0 ? "loop" : "fragment", rest)) blockFieldDone();
                return true;
            }
            breakOff(expectedText(), false);
            return false;
        }
        case Block::Reduce: {
            static constexpr std::string_view keys[] = {
                "src_layout =", "reducer_layout =", "orig_dst_layout ="};
            static const char* roles[] = {"src_layout", "reducer_layout", "orig_dst_layout"};
            if (startsAfterIndent(line, keys[step], &rest)) {
                take();
                if (layoutLine(roles[step], rest)) blockFieldDone();
                return true;
            }
            if (step >= 1) { // what is there is still worth showing
                cur.problem = "line " + std::to_string(lineNo) + ": expected " + expectedText() +
                              " (the message is incomplete)";
                emit();
                return false;
            }
            breakOff(expectedText(), false);
            return false;
        }
        default:
            break;
        }
        return false;
    }

    void startLine(std::string_view line, bool eofPartial) {
        // Quick reject: every line we care about has one of these.
        bool layoutish = line.find("ayout") != std::string_view::npos ||
                         line.find("Fragment") != std::string_view::npos;
        std::string type, message;
        bool exc = exceptionLine(trimmed(line), &type, &message);
        if (!layoutish && !exc) return;

        if (exc) {
            begin(EventKind::Error, Block::None, line);
            cur.message = type + ": " + message;
            // A traceback prints its innermost frame, then that frame's source line and carets.
            if (frameLine && lineNo - frameLine <= 6) cur.location = frame;
            // Name the buffer when the message does.
            std::string_view m = message;
            if (auto p = m.find(kDifferent); p != std::string_view::npos)
                cur.buffer = std::string(token(m.substr(p + kDifferent.size())));
            if (auto p = m.find(kAlias); p != std::string_view::npos)
                cur.buffer = std::string(token(m.substr(p + kAlias.size())));
            if (auto p = m.find(kParallel); p != std::string_view::npos)
                cur.buffer = std::string(token(m.substr(p + kParallel.size())));
            if (auto p = m.find(kReduce); p != std::string_view::npos)
                cur.buffer = std::string(token(m.substr(p + kReduce.size())));
            if (auto p = m.find(kLower); p != std::string_view::npos) {
                std::string_view n = m.substr(p + kLower.size());
                cur.buffer = std::string(n.substr(0, n.find('`')));
            }
            emit();
            if (!layoutish) return;
        }

        std::size_t p;
        if ((p = line.find(kAlias)) != std::string_view::npos) {
            begin(EventKind::AliasConflict, Block::Alias, line);
            std::string_view r = line.substr(p + kAlias.size());
            cur.buffer = std::string(token(r));
            cur.message = std::string(trimmed(line.substr(p)));
            if (auto q = r.find("(data-shared with "); q != std::string_view::npos) {
                std::string_view o = r.substr(q + 18);
                cur.other = std::string(o.substr(0, o.find(')')));
            }
        } else if ((p = line.find(kDifferent)) != std::string_view::npos) {
            begin(EventKind::Conflict, Block::Conflict, line);
            cur.buffer = std::string(token(line.substr(p + kDifferent.size())));
            cur.message = std::string(trimmed(line.substr(p)));
        } else if ((p = line.find(kParallel)) != std::string_view::npos) {
            begin(EventKind::ParallelConflict, Block::Parallel, line);
            std::string_view r = line.substr(p + kParallel.size());
            cur.buffer = std::string(token(r));
            if (auto q = r.find(" and "); q != std::string_view::npos)
                cur.other = std::string(token(r.substr(q + 5)));
            cur.message = std::string(trimmed(line.substr(p)));
        } else if ((p = line.find(kReduce)) != std::string_view::npos) {
            begin(EventKind::ReduceConflict, Block::Reduce, line);
            std::string_view r = line.substr(p + kReduce.size());
            cur.buffer = std::string(token(r));
            if (auto q = r.find(" vs. "); q != std::string_view::npos)
                cur.other = stripPeriod(token(r.substr(q + 5)));
            cur.message = std::string(trimmed(line.substr(p)));
        } else if ((p = line.find(kFailed)) != std::string_view::npos) {
            begin(EventKind::Warning, Block::None, line);
            cur.buffer = stripPeriod(token(line.substr(p + kFailed.size())));
            cur.message = std::string(trimmed(line.substr(p)));
            emit();
            return;
        } else if (auto q = line.find(kInferred), q2 = line.find(kInferenced);
                   q != std::string_view::npos || q2 != std::string_view::npos) {
            std::size_t at = q != std::string_view::npos ? q : q2;
            std::size_t len = q != std::string_view::npos ? kInferred.size() : kInferenced.size();
            if (!trimmed(line.substr(at + len)).empty()) return; // prose, not a header
            begin(EventKind::Inferred, Block::Visual, line);
            cur.buffer = std::string(lastToken(line.substr(0, at)));
            std::fill(std::begin(fieldLine), std::end(fieldLine), 0);
        } else if ((p = reprStart(line)) != std::string_view::npos) {
            if (exc) return; // already reported as the error's text
            begin(EventKind::Repr, Block::Repr, line);
            // `name = Fragment(...)` / `name: Layout(...)`
            std::string_view before = trimmed(line.substr(0, p));
            while (!before.empty() && (before.back() == '=' || before.back() == ':'))
                before.remove_suffix(1);
            cur.buffer = std::string(lastToken(before));
            if (layoutLine("layout", line.substr(p))) emit();
            return;
        } else {
            return;
        }
        if (eofPartial && cur.problem.empty())
            cur.problem = "line " + std::to_string(lineNo) + ": the log ends mid-line";
    }

    void flushBinary() {
        if (binaryFirst == 0) return;
        Event keep = std::move(cur);
        Block keepBlock = block;
        cur = Event{};
        cur.kind = EventKind::Warning;
        cur.line = binaryFirst;
        cur.endLine = binaryLast;
        cur.message = binaryFirst == binaryLast
                          ? "binary data skipped (line " + std::to_string(binaryFirst) + ")"
                          : "binary data skipped (lines " + std::to_string(binaryFirst) + "-" +
                                std::to_string(binaryLast) + ")";
        emit();
        cur = std::move(keep);
        block = keepBlock;
        binaryFirst = binaryLast = 0;
    }

    void line(std::string_view l, bool eofPartial) {
        ++lineNo;
        if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
        onLine(l, eofPartial);
    }

    void feed(std::string_view chunk) {
        if (stop) return;
        if (byteCount + static_cast<std::int64_t>(chunk.size()) > opt.maxBytes) {
            chunk = chunk.substr(0, static_cast<std::size_t>(opt.maxBytes - byteCount));
            feedLines(chunk);
            byteCount = opt.maxBytes;
            stop = true;
            finishAll();
            Event w;
            w.kind = EventKind::Warning;
            w.line = w.endLine = lineNo;
            w.message = "the log is larger than " + std::to_string(opt.maxBytes) +
                        " bytes (the limit); the rest is ignored after line " +
                        std::to_string(lineNo);
            cur = std::move(w);
            emit();
            return;
        }
        byteCount += static_cast<std::int64_t>(chunk.size());
        feedLines(chunk);
    }

    void feedLines(std::string_view chunk) {
        while (!chunk.empty()) {
            const char* nl =
                static_cast<const char*>(std::memchr(chunk.data(), '\n', chunk.size()));
            std::size_t n = nl ? static_cast<std::size_t>(nl - chunk.data()) : chunk.size();
            std::string_view piece = chunk.substr(0, n);
            if (partial.empty() && !partialCut && nl) {
                line(cutLong(piece), false);
            } else {
                appendPartial(piece);
                if (nl) {
                    std::string l = std::move(partial);
                    partial.clear();
                    partialCut = false;
                    line(l, false);
                }
            }
            chunk.remove_prefix(nl ? n + 1 : n);
        }
    }

    std::string_view cutLong(std::string_view piece) {
        return piece.size() > opt.maxLineBytes ? piece.substr(0, opt.maxLineBytes) : piece;
    }

    void appendPartial(std::string_view piece) {
        if (partial.size() >= opt.maxLineBytes) {
            partialCut = true;
            return;
        }
        std::size_t room = opt.maxLineBytes - partial.size();
        if (piece.size() > room) {
            partialCut = true;
            piece = piece.substr(0, room);
        }
        partial.append(piece);
    }

    void finishAll() {
        if (!partial.empty() || partialCut) {
            std::string l = std::move(partial);
            partial.clear();
            partialCut = false;
            line(l, true);
        }
        flushBinary();
        if (block != Block::None) {
            if (awaitingSpan || snippetLines > 0) {
                awaitingSpan = false;
                snippetLines = 0;
                emit();
            } else if (block == Block::Visual && step == 3) {
                finishVisual();
                emit();
            } else {
                breakOff(expectedText(), true);
            }
        }
    }
};

Parser::Parser(ParserOptions options) : impl_(std::make_unique<Impl>(options)) {}
Parser::~Parser() = default;
Parser::Parser(Parser&&) noexcept = default;
Parser& Parser::operator=(Parser&&) noexcept = default;

std::vector<Event> Parser::feed(std::string_view chunk) {
    impl_->feed(chunk);
    return std::exchange(impl_->out, {});
}

std::vector<Event> Parser::finish() {
    if (!impl_->stop) impl_->finishAll();
    return std::exchange(impl_->out, {});
}

std::size_t Parser::lines() const {
    return impl_->lineNo;
}
std::int64_t Parser::bytes() const {
    return impl_->byteCount;
}
bool Parser::stopped() const {
    return impl_->stop;
}

std::vector<Event> parseText(std::string_view text, ParserOptions options) {
    Parser p(options);
    std::vector<Event> all = p.feed(text);
    for (auto& e : p.finish())
        all.push_back(std::move(e));
    return all;
}

std::vector<Event> parseFile(const std::string& path, ParserOptions options) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError("cannot open log '" + path + "': " + std::strerror(errno));
    Parser p(options);
    std::vector<Event> all;
    std::string buf(1 << 20, '\0');
    while (in && !p.stopped()) {
        in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
        std::streamsize n = in.gcount();
        if (n <= 0) break;
        for (auto& e : p.feed(std::string_view(buf.data(), static_cast<std::size_t>(n))))
            all.push_back(std::move(e));
    }
    if (in.bad()) throw InputError("cannot read log '" + path + "'");
    for (auto& e : p.finish())
        all.push_back(std::move(e));
    return all;
}

} // namespace ts::dump
