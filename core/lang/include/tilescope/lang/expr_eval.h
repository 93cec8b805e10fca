// SPDX-License-Identifier: Apache-2.0
// Compiled evaluation of several expressions over batches of points.
//
// Walking the tree once per cell is far too slow for a 1024x1024 grid, so expressions are
// compiled once into a flat register program (common subexpressions shared, constant operands
// folded into immediates) that runs over a whole batch of points per instruction.
#pragma once

#include "tilescope/lang/expr.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace ts {

class Program {
public:
    // `vars` are the input variable names in the order their arrays are passed to run().
    // Throws InputError naming an unknown variable.
    Program(const std::vector<Expr>& outputs, const std::vector<std::string>& vars);
    // With variable ranges [0, extent): when interval analysis proves every intermediate value
    // fits in 32 bits, run() uses a 32-bit path that vectorizes (AVX2 where available).
    Program(const std::vector<Expr>& outputs, const std::vector<std::string>& vars,
            const std::vector<std::int64_t>& extents);
    bool narrow() const { return narrow_; }

    std::size_t outputCount() const { return outputs_.size(); }
    std::size_t instructionCount() const { return code_.size(); }

    // Evaluates `n` points. inputs[v][p] is variable v at point p; outputs[o][p] receives output o.
    // On a division/modulo by zero or a bad shift, returns false and sets `failedPoint` and
    // `message`; nothing is thrown so callers can map the point back to a cell.
    bool run(std::span<const std::int64_t* const> inputs, std::span<std::int64_t* const> outputs,
             std::size_t n, std::size_t& failedPoint, std::string& message) const;

    static constexpr std::size_t kBatch = 1024;

private:
    struct Instr {
        Op op;
        bool immediate;   // b is a constant
        int dst, a, b, c; // c: the third operand of Select/IfThenElse, else -1
        std::int64_t imm;
    };
    std::vector<Instr> code_;
    std::vector<int> outputs_; // register holding each output (or -1 - constIndex)
    std::vector<std::int64_t> outputConst_;
    int varCount_ = 0;
    bool narrow_ = false;
    bool run32(std::span<const std::int64_t* const> inputs, std::span<std::int64_t* const> outputs,
               std::size_t n, std::size_t& failedPoint, std::string& message) const;
    bool run64(std::span<const std::int64_t* const> inputs, std::span<std::int64_t* const> outputs,
               std::size_t n, std::size_t& failedPoint, std::string& message) const;
    template <class T>
    bool exec(std::span<const std::int64_t* const> inputs, std::span<std::int64_t* const> outputs,
              std::size_t n, std::size_t& failedPoint, std::string& message) const;
    int regCount_ = 0;
};

} // namespace ts
